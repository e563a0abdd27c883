package organization_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

const pipelineSettingsAddr = "buildkite_organization_pipeline_settings.test"

// checkPipelineSettings fails unless the service holds check's expectations.
func checkPipelineSettings(e *acctest.TestEnv, check func(s *buildkite.PipelineSettings) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := e.Client.PipelineSettings.Get(context.Background())
		if err != nil {
			return err
		}
		return check(s)
	}
}

// pipelineSettingsWrites counts the writes the emulator answered to /pipeline-settings (not in live mode).
func pipelineSettingsWrites(e *acctest.TestEnv) int {
	n := 0
	for _, r := range e.Server.Requests() {
		if r.Method != http.MethodGet && strings.Contains(r.Path, "/pipeline-settings") {
			n++
		}
	}
	return n
}

func TestAccOrganizationPipelineSettingsResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepPipelineSettings()
	cluster := e.Name("settings")
	bucket := strings.ToLower(e.Name("exports"))
	first := acctest.ClusterConfig(cluster, "") + acctest.PipelineSettingsConfig(fmt.Sprintf(`
  default_branch                   = "trunk"
  default_cluster_id               = buildkite_cluster.test.uuid
  scheduled_job_expiry_in_minutes  = 120
  public_pipeline_creation_enabled = true
  build_export_location            = %q
  build_export_strategy_id         = "s3"
`, bucket))
	second := acctest.ClusterConfig(cluster, "") + acctest.PipelineSettingsConfig(`
  default_branch                   = "develop"
  default_cluster_id               = ""
  scheduled_job_expiry_in_minutes  = 90
  public_pipeline_creation_enabled = false
  build_export_location            = ""
  build_export_strategy_id         = ""
`)
	// Left out of the configuration, the settings are no longer managed: nothing is planned or reset.
	third := acctest.ClusterConfig(cluster, "") + acctest.PipelineSettingsConfig(`  default_branch = "develop"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		// Destroying changes nothing on the service.
		CheckDestroy: checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
			if s.DefaultBranch != "develop" || kit.Deref(s.ScheduledJobExpiryInMinutes) != 90 {
				return fmt.Errorf("destroy changed the settings: branch %q, expiry %v", s.DefaultBranch, s.ScheduledJobExpiryInMinutes)
			}
			return nil
		}),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(first),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(pipelineSettingsAddr, "id", e.Org),
					resource.TestCheckResourceAttrPair(pipelineSettingsAddr, "default_cluster_id", "buildkite_cluster.test", "uuid"),
					resource.TestCheckResourceAttr(pipelineSettingsAddr, "build_export_available", "true"),
					resource.TestCheckResourceAttrSet(pipelineSettingsAddr, "build_export_supported_strategies.0"),
					checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
						if s.DefaultBranch != "trunk" || s.DefaultClusterID == nil || !s.PublicPipelineCreation.Enabled ||
							kit.Deref(s.BuildExports.Location) != bucket || kit.Deref(s.ScheduledJobExpiryInMinutes) != 120 {
							return fmt.Errorf("the service holds %+v", s)
						}
						return nil
					}),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(pipelineSettingsAddr, func(*terraform.State) (string, error) { return e.Org, nil }),
			acctest.Step(resource.TestStep{
				Config: e.Config(second),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(pipelineSettingsAddr, "default_cluster_id", ""),
					resource.TestCheckResourceAttr(pipelineSettingsAddr, "build_export_location", ""),
					checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
						if s.DefaultBranch != "develop" || s.DefaultClusterID != nil || s.PublicPipelineCreation.Enabled || s.BuildExports.Enabled {
							return fmt.Errorf("the service holds %+v", s)
						}
						return nil
					}),
				),
				ConfigPlanChecks: acctest.InPlace(pipelineSettingsAddr),
			}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(third),
				ConfigPlanChecks: acctest.ExpectEmpty(),
				Check: checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
					if kit.Deref(s.ScheduledJobExpiryInMinutes) != 90 {
						return fmt.Errorf("an attribute left out of the configuration was reset: expiry %v", s.ScheduledJobExpiryInMinutes)
					}
					return nil
				}),
			}),
		),
	})
}

// TestAccOrganizationPipelineSettingsResource_drift: a managed setting changed outside Terraform is planned
// back; an unmanaged one is read and left alone.
func TestAccOrganizationPipelineSettingsResource_drift(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepPipelineSettings()
	cfg := e.Config(acctest.PipelineSettingsConfig(`  default_branch = "trunk"`))
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					if _, err := e.Client.PipelineSettings.Update(ctx, buildkite.PipelineSettingsUpdate{DefaultBranch: buildkite.Value("changed-outside")}); err != nil {
						t.Fatal(err)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: acctest.InPlace(pipelineSettingsAddr),
				Check: checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
					if s.DefaultBranch != "trunk" {
						return fmt.Errorf("default branch %q, want it put back", s.DefaultBranch)
					}
					return nil
				}),
			},
			{
				PreConfig: func() {
					if _, err := e.Client.PipelineSettings.SetSwitch(ctx, buildkite.SwitchHostedAgentsSSH, true); err != nil {
						t.Fatal(err)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: acctest.ExpectEmpty(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(pipelineSettingsAddr, "hosted_agents_terminal_access_enabled", "true"),
					checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
						if !s.HostedAgentsTerminalAccess.Enabled {
							return fmt.Errorf("an unmanaged switch was turned off")
						}
						return nil
					}),
				),
			},
		},
	})
}

// TestAccOrganizationPipelineSettingsResource_sendsOnlyDifferences: a configuration the organization already
// holds sends no write at all.
func TestAccOrganizationPipelineSettingsResource_sendsOnlyDifferences(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: counts the emulator's requests")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(acctest.PipelineSettingsConfig(`
  default_branch                        = "main"
  public_pipeline_creation_enabled      = false
  hosted_agents_terminal_access_enabled = false
  build_export_location                 = ""
  build_export_strategy_id              = ""
`)),
			Check: func(*terraform.State) error {
				if n := pipelineSettingsWrites(e); n != 0 {
					return fmt.Errorf("%d writes sent for settings the organization already held", n)
				}
				return nil
			},
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

// TestAccOrganizationPipelineSettingsResource_destroySendsNothing: destroying the resource sends no write
// at all (it warns that the settings are left intact, which the test framework cannot see), and the
// settings keep the values it applied.
func TestAccOrganizationPipelineSettingsResource_destroySendsNothing(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: reads the emulator's request log")
	}
	before := 0 // the requests the emulator had answered before the destroy
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			func(*terraform.State) error {
				for _, r := range e.Server.Requests()[before:] {
					if r.Method != http.MethodGet {
						return fmt.Errorf("destroy sent %s %s", r.Method, r.Path)
					}
				}
				return nil
			},
			checkPipelineSettings(e, func(s *buildkite.PipelineSettings) error {
				if s.DefaultBranch != "kept" || kit.Deref(s.ScheduledJobExpiryInMinutes) != 75 || !s.PublicPipelineCreation.Enabled {
					return fmt.Errorf("destroy changed the settings: %+v", s)
				}
				return nil
			}),
		),
		Steps: []resource.TestStep{{
			Config: e.Config(acctest.PipelineSettingsConfig(`
  default_branch                   = "kept"
  scheduled_job_expiry_in_minutes  = 75
  public_pipeline_creation_enabled = true
`)),
			Check: func(*terraform.State) error {
				if pipelineSettingsWrites(e) == 0 {
					return fmt.Errorf("the settings were not written")
				}
				before = len(e.Server.Requests())
				return nil
			},
		}},
	})
}

func TestAccOrganizationPipelineSettingsResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := func(body string) string { return e.Config(acctest.PipelineSettingsConfig(body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`  scheduled_job_expiry_in_minutes = 59`), ExpectError: regexp.MustCompile(`(?s)scheduled_job_expiry_in_minutes.*between 60 and 43200`)},
			{Config: cfg(`  default_timeout_in_minutes = -1`), ExpectError: regexp.MustCompile(`(?s)default_timeout_in_minutes.*at least 0`)},
			{Config: cfg(`  default_cluster_id = "Q2x1c3Rlci0tLTE="`), ExpectError: acctest.Wrapped("must be a UUID")},
			{Config: cfg("  build_export_location = \"s3://bucket\"\n  build_export_strategy_id = \"s3\""),
				ExpectError: acctest.Wrapped("must be a bare bucket name, without a scheme")},
			{Config: cfg(`  build_export_location = "bucket"`), ExpectError: acctest.Wrapped("build_export_strategy_id")},
			{Config: cfg("  build_export_location = \"\"\n  build_export_strategy_id = \"s3\""),
				ExpectError: acctest.Wrapped("Mismatched build export location and strategy")},
			{
				Config:        cfg(`  default_branch = "main"`),
				ResourceName:  pipelineSettingsAddr,
				ImportState:   true,
				ImportStateId: "another-organization",
				ExpectError:   acctest.Wrapped("Organization does not match provider configuration"),
			},
		},
	})
}

// TestAccOrganizationPipelineSettingsResource_refusals: the service's refusals reach the user with what
// they mean here, and what was applied before one is kept in state.
func TestAccOrganizationPipelineSettingsResource_refusals(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("changes the organization's plan in the emulator")
	}
	e.Server.Store().SetBuildExportAvailable(e.Org, false)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(acctest.PipelineSettingsConfig(`
  default_branch           = "trunk"
  build_export_location    = "bucket"
  build_export_strategy_id = "s3"
`)),
				ExpectError: acctest.Wrapped("Build export is not available on the organization's plan"),
			},
			{
				// What was applied before the refusal is on the service and in state: the branch.
				PreConfig: func() {
					s, err := e.Client.PipelineSettings.Get(context.Background())
					if err != nil || s.DefaultBranch != "trunk" {
						t.Errorf("after the refused build export: %+v, %v; want the branch changed", s, err)
					}
				},
				Config: e.Config(acctest.PipelineSettingsConfig(`  default_branch = "trunk"`)),
				Check:  resource.TestCheckResourceAttr(pipelineSettingsAddr, "default_branch", "trunk"),
			},
		},
	})
}

// The rows of buildkite_organization_pipeline_settings in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_organization_pipeline_settings", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Named by the organization's slug; destroying it leaves the settings as they are.
		ResourceType: "buildkite_organization_pipeline_settings", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			e.KeepPipelineSettings()
			return acctest.IdentityConfigs{
				Create:    acctest.PipelineSettingsConfig(`  default_branch = "identity"`),
				Update:    acctest.PipelineSettingsConfig(`  default_branch = "identity-changed"`),
				Destroyed: func(*terraform.State) error { return nil },
			}
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "The organization's pipeline settings are a singleton the tests hold and put back (acctest/singleton.go): there is nothing to remove.",
	},
})

package clusters_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// testAccClusterSecretConfig declares cluster "<cluster>" and its secret "<key>" with the attributes body.
func testAccClusterSecretConfig(cluster, key, body string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_secret" "test" {
  cluster_id = buildkite_cluster.test.id
  key        = %q
%s
}
`, cluster, key, body)
}

func TestAccClusterSecretResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("secrets")
	config := func(key, body string) string { return e.Config(testAccClusterSecretConfig(cluster, key, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_secret"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: config("DEPLOY_KEY", `  value       = "first-value"
  description = "Deploys"
  policy      = <<-YAML
    - pipeline_slug: app
      build_branch: main
  YAML`),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(acctest.SecretAddr), e.CheckSecretValue("first-value"),
					resource.TestCheckResourceAttrPair(acctest.SecretAddr, "uuid", acctest.SecretAddr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectSensitiveValue(acctest.SecretAddr, tfjsonpath.New("value")),
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("value"), knownvalue.StringExact("first-value")),
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("value_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			// The value is unknown to the service's answers: an import has none.
			acctest.ImportSteps(acctest.SecretAddr, acctest.ImportID(acctest.SecretAddr, "cluster_id", "id"), "value"),
			acctest.Step(resource.TestStep{
				// The same policy written otherwise is no change.
				Config: config("DEPLOY_KEY", `  value       = "first-value"
  description = "Deploys"
  policy      = "- {pipeline_slug: app, build_branch: main}\r\n"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			}),
			acctest.Step(resource.TestStep{
				// A new value is sent in place; the description goes and the policy changes.
				Config: config("DEPLOY_KEY", `  value  = "second-value"
  policy = "- pipeline_slug: web\n"`),
				ConfigPlanChecks: acctest.InPlace(acctest.SecretAddr),
				Check:            e.CheckSecretValue("second-value"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("policy"), knownvalue.StringExact("- pipeline_slug: web\n")),
				},
			}),
			acctest.Step(resource.TestStep{
				// A new key replaces the secret.
				Config: config("OTHER_KEY", `  value = "second-value"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.SecretAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckExists(acctest.SecretAddr), e.CheckSecretValue("second-value")),
			}),
		),
	})
}

// TestAccClusterSecretResource_writeOnly keeps the value out of plan and state: a new write-only value
// alone changes nothing, a new version sends it, and a move to value (and back) sends that.
func TestAccClusterSecretResource_writeOnly(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("secrets-wo")
	config := func(body string) string { return e.Config(testAccClusterSecretConfig(cluster, "TOKEN", body)) }
	writeOnly := func(value, version string) string {
		return fmt.Sprintf("  value_wo         = %q\n  value_wo_version = %q", value, version)
	}
	noValueStored := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("value_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("value"), knownvalue.Null()),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_secret"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: config(writeOnly("wo-one", "1")), Check: e.CheckSecretValue("wo-one"),
				ConfigStateChecks: append(noValueStored,
					statecheck.ExpectKnownValue(acctest.SecretAddr, tfjsonpath.New("value_wo_version"), knownvalue.StringExact("1"))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(acctest.SecretAddr, tfjsonpath.New("id"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(acctest.SecretAddr, acctest.ImportID(acctest.SecretAddr, "cluster_id", "id"), "value_wo_version"),
			acctest.Step(resource.TestStep{
				// Terraform cannot see a write-only value change: without a new version nothing is sent.
				Config:           config(writeOnly("wo-two", "1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            e.CheckSecretValue("wo-one"),
			}),
			acctest.Step(resource.TestStep{
				Config: config(writeOnly("wo-two", "2")), ConfigPlanChecks: acctest.InPlace(acctest.SecretAddr),
				Check: e.CheckSecretValue("wo-two"), ConfigStateChecks: noValueStored,
			}),
			acctest.Step(resource.TestStep{
				Config: config(`  value = "kept-in-state"`), ConfigPlanChecks: acctest.InPlace(acctest.SecretAddr),
				Check: e.CheckSecretValue("kept-in-state"),
			}),
			acctest.Step(resource.TestStep{
				Config: config(writeOnly("wo-three", "3")), ConfigPlanChecks: acctest.InPlace(acctest.SecretAddr),
				Check: e.CheckSecretValue("wo-three"), ConfigStateChecks: noValueStored,
			}),
		),
	})
}

// TestAccClusterSecretResource_importTakeOver imports a secret made outside Terraform, whose value
// Terraform cannot know: a configuration without a value plans empty, and one with a value sends it.
func TestAccClusterSecretResource_importTakeOver(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("secrets-import")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(context.Background(), c.ID) })
	s, err := e.Client.ClusterSecrets.Create(context.Background(), c.ID, buildkite.ClusterSecretCreate{
		Key: "LEGACY", Value: "set-outside", Description: acctest.PtrTo("Made by hand"),
	})
	if err != nil {
		t.Fatal(err)
	}
	body := func(value string) string {
		return e.Config(fmt.Sprintf(`
import {
  to = buildkite_cluster_secret.test
  id = "%s/%s"
}

resource "buildkite_cluster_secret" "test" {
  cluster_id  = %q
  key         = "LEGACY"
  description = "Made by hand"
%s
}
`, c.ID, s.ID, c.ID, value))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: body(""), Check: e.CheckSecretValue("set-outside"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.SecretAddr, plancheck.ResourceActionNoop)},
				},
			},
			{
				Config: body(`  value_wo         = "taken-over"
  value_wo_version = "1"`),
				ConfigPlanChecks: acctest.InPlace(acctest.SecretAddr), Check: e.CheckSecretValue("taken-over"),
			},
		},
	})
}

func TestAccClusterSecretResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears(acctest.SecretAddr, testAccClusterSecretConfig(e.Name("secrets-gone"), "GONE", `  value = "v"`))
}

func TestAccClusterSecretResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	config := func(key, body string) string {
		return e.Config(fmt.Sprintf(`
resource "buildkite_cluster_secret" "test" {
  cluster_id = %q
  key        = %q
%s
}
`, acctest.UnknownUUID, key, body))
	}
	var plans []resource.TestStep
	for _, tc := range []struct{ key, body, want string }{
		{"1KEY", `  value = "v"`, `must start with a letter and only contain letters, numbers, and underscores`},
		{"MY-KEY", `  value = "v"`, `must start with a letter and only contain letters, numbers, and underscores`},
		{"BuildKite_TOKEN", `  value = "v"`, `Secret key must not start with 'buildkite' or 'bk' (reserved prefixes, case-insensitive)`},
		{"bk_token", `  value = "v"`, `Invalid secret key`},
		{"K" + strings.Repeat("x", 255), `  value = "v"`, `string length must be at most 255`},
		{"KEY", fmt.Sprintf("  value = %q", strings.Repeat("x", 8193)), `string length must be between 1 and 8192, got: 8193`},
		{"KEY", `  value = ""`, `string length must be between 1 and 8192, got: 0`},
		{"KEY", `  value = "v"
  value_wo = "w"
  value_wo_version = "1"`, `These attributes cannot be configured together: [value,value_wo]`},
		{"KEY", `  value_wo = "w"`, `value_wo_version`},
		{"KEY", `  value_wo_version = "1"`, `value_wo`},
		{"KEY", `  value_wo = "w"
  value_wo_version = ""`, `Invalid Attribute Value Length`},
		{"KEY", `  value = "v"
  policy = "- [unclosed"`, `Invalid YAML`},
		{"KEY", ``, `Missing Attribute Configuration`},
		{"KEY", ``, `A new cluster secret needs a value: set value, or value_wo with value_wo_version`},
	} {
		plans = append(plans, resource.TestStep{Config: config(tc.key, tc.body), PlanOnly: true, ExpectError: acctest.Wrapped(tc.want)})
	}
	plans = append(plans, resource.TestStep{
		Config: config("KEY", `  value = "v"`), ResourceName: acctest.SecretAddr, ImportState: true, ImportStateId: "no-slash",
		ExpectError: acctest.Wrapped(`Expected an import ID of the form "<cluster id>/<secret id>"`),
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: plans})
}

// TestAccClusterSecretResource_createTakenNamesHolder: a secret left behind by an apply killed before it
// recorded it holds its key, so creating it again is refused; the refusal names the secret that holds the
// key and gives the import block that adopts it.
func TestAccClusterSecretResource_createTakenNamesHolder(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ctx := context.Background()
	c, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.Name("taken")})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Client.ClusterSecrets.Create(ctx, c.ID, buildkite.ClusterSecretCreate{Key: "DEPLOY_KEY", Value: "left-behind"})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
resource "buildkite_cluster_secret" "test" {
  cluster_id = %q
  key        = "DEPLOY_KEY"
  value      = "again"
}
`, c.ID)),
			ExpectError: acctest.Wrapped(fmt.Sprintf(`id = %q`, c.ID+"/"+s.ID)),
		}},
	})
}

// The rows of buildkite_cluster_secret in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_secret", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// The value is unknown after an import, so the configuration that sets it plans an update that sends it.
		ResourceType: "buildkite_cluster_secret", Attrs: []string{"cluster_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			cluster := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccClusterSecretConfig(cluster, "TOKEN", `  value = "v"`),
				ImportSteps: []resource.TestStep{
					{
						ResourceName: acctest.SecretAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
						ExpectNonEmptyPlan: true,
						ImportPlanChecks: resource.ImportPlanChecks{
							PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.SecretAddr, plancheck.ResourceActionUpdate)},
						},
					},
					{ResourceName: acctest.SecretAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity, GenerateConfig: true},
				},
				Update: testAccClusterSecretConfig(cluster, "TOKEN", `  value       = "v"
  description = "Rotated monthly"`),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster_secret", Add: (*acctest.OfficialWorkspace).AddSecret, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_cluster_secret.deploy", map[string]any{"value": "moved-value", "description": "Deploys"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_secret", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedBeyondSpec(t, base)
		secret := func(c *buildkite.Cluster, sec *buildkite.ClusterSecret) queryfilter.QueryFilter {
			return acctest.ByIdentity("cluster_id", c.ID, "id", sec.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_secret", "b", fmt.Sprintf("    cluster_id = %q", s.B.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_secret.all", 3),
				querycheck.ExpectLength("buildkite_cluster_secret.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_secret.b", acctest.IdentityOf("cluster_id", s.B.ID, "id", s.OtherSecret.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_secret.all", secret(s.A, s.Token), knownvalue.StringExact(base+"-a / TOKEN")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_secret.all", secret(s.A, s.DeployKey), []querycheck.KnownValueCheck{
					acctest.Known("key", knownvalue.StringExact("DEPLOY_KEY")),
					acctest.Known("description", knownvalue.StringExact("Deploys")),
					acctest.Known("policy", knownvalue.StringExact("- pipeline_slug: "+s.P1.Slug+"\n")),
					acctest.Known("value", knownvalue.Null()), // the service never shows it
				}),
			},
			Imports: 3,
		}
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "secret, the official provider's", TypeName: "buildkite_cluster_secret", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID, "cluster_id": acctest.TestUUID, "key": "DEPLOY_KEY", "value": "s3cret",
				"value_wo": nil, "value_wo_version": nil, "description": "", "policy": nil, "created_at": "c", "updated_at": "u"},
			Want: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "cluster_id": acctest.TestUUID, "value": "s3cret",
				"description": nil, "graphql_id": nil, "updated_at": "u"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A cluster's secrets go with their cluster, which the cluster sweeper removes.",
	},
})

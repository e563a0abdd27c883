package pipelines_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccPipelineConfig is a pipeline named name with extra attributes, beside a cluster.
func testAccPipelineConfig(name, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "ci" {
  name = "%[1]s-cluster"
}

resource "buildkite_pipeline" "test" {
  name       = %[1]q
  repository = "https://github.com/acme/app.git"
%[2]s
}
`, name, extra)
}

// pipelineCreateStep creates the pipeline of TestAccPipelineResource_basic with most attributes set, steps
// yaml among them, and checks what the service and the state hold.
func pipelineCreateStep(e *acctest.TestEnv, name, yaml string) resource.TestStep {
	return resource.TestStep{
		Config: e.Config(testAccPipelineConfig(name, fmt.Sprintf(`
  cluster_id     = buildkite_cluster.ci.id
  steps          = %q
  description    = "Builds the app"
  default_branch = "trunk"
  tags           = ["go", "web"]
  visibility     = "PUBLIC"
  cancel_intermediate_builds               = true
  cancel_intermediate_builds_branch_filter = "!main"
  default_timeout_in_minutes               = 30
  maximum_timeout_in_minutes               = 60
  provider_settings = {
    trigger_mode             = "none"
    build_tags               = true
    issue_comment_match_mode = "contains"
    build_release_created    = true
  }`, yaml))),
		Check: resource.ComposeTestCheckFunc(e.CheckExists(acctest.PipelineAddr), e.CheckPipeline(func(p *buildkite.Pipeline) error {
			if p.Visibility != "public" || p.ClusterID == nil || !p.CancelRunningBranchBuilds ||
				kit.Deref(p.DefaultCommandStepTimeout) != 30 || kit.Deref(p.MaximumCommandStepTimeout) != 60 ||
				p.Provider.Settings["issue_comment_match_mode"] != "contains" || p.Provider.Settings["build_release_created"] != true {
				return fmt.Errorf("service has %+v", p)
			}
			return nil
		}), resource.TestCheckResourceAttrPair(acctest.PipelineAddr, "cluster_name", "buildkite_cluster.ci", "name")),
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.StateIs("slug", knownvalue.StringExact(name)),
			acctest.StateIs("visibility", knownvalue.StringExact("PUBLIC")),
			acctest.StateIs("steps", knownvalue.StringExact(yaml)),
			acctest.StateIs("uuid", knownvalue.NotNull()),
			acctest.StateIs("badge_url", knownvalue.NotNull()),
			acctest.StateIs("webhook_url", knownvalue.NotNull()),
			acctest.StateIs("created_at", knownvalue.NotNull()),
			acctest.StateIs("archived", knownvalue.Bool(false)),
			acctest.StateIs("allow_rebuilds", knownvalue.Bool(true)),
			acctest.StateIs("tags", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("go"), knownvalue.StringExact("web")})),
			// Set keys keep their values; the others show the service's (#437, #918).
			statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("trigger_mode"), knownvalue.StringExact("none")),
			statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("build_tags"), knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("publish_commit_status"), knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("issue_comment_match_mode"), knownvalue.StringExact("contains")),
			statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("review_comment_match_mode"), knownvalue.StringExact("exact")),
			acctest.StateIs("default_timeout_in_minutes", knownvalue.Int64Exact(30)),
			acctest.StateIs("maximum_timeout_in_minutes", knownvalue.Int64Exact(60)),
			acctest.StateIs("emoji", knownvalue.Null()),
		},
		ConfigPlanChecks: acctest.ExpectEmpty(),
	}
}

func TestAccPipelineResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("app")
	yaml := "steps:\n  - label: build\n    command: make\n"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: acctest.Steps(
			acctest.Step(pipelineCreateStep(e, name, yaml)),
			// Import by slug, by UUID and by GraphQL ID (the official provider's import ID): settings and slug
			// come back (#1089, #1191), visibility in the official upper case the configuration uses.
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "slug")),
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "id")),
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "graphql_id")),
			acctest.Step(resource.TestStep{
				// Update in place: a rename moves the slug (#903, #954), other attributes change or go: the
				// cluster and the tags are cleared, description, flags and timeouts keep the service's values,
				// as the official provider's removals do.
				Config: e.Config(testAccPipelineConfig(name+"-2", `
  steps          = "steps:\n  - command: make test\n"
  tags           = ["go"]
  visibility     = "public"
  default_timeout_in_minutes = 45
  provider_settings = {
    build_tags = false
  }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("slug", knownvalue.StringExact(name+"-2")),
					acctest.StateIs("description", knownvalue.StringExact("Builds the app")),
					acctest.StateIs("cluster_id", knownvalue.Null()),
					acctest.StateIs("cancel_intermediate_builds", knownvalue.Bool(true)),
					acctest.StateIs("cancel_intermediate_builds_branch_filter", knownvalue.StringExact("!main")),
					// The spelling changed, the value did not: kept as written.
					acctest.StateIs("visibility", knownvalue.StringExact("PUBLIC")),
					acctest.StateIs("cluster_name", knownvalue.Null()),
					acctest.StateIs("default_timeout_in_minutes", knownvalue.Int64Exact(45)),
					acctest.StateIs("maximum_timeout_in_minutes", knownvalue.Int64Exact(60)),
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("trigger_mode"), knownvalue.StringExact("none")),
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("build_tags"), knownvalue.Bool(false)),
				},
				Check: e.CheckPipeline(func(p *buildkite.Pipeline) error {
					if p.Slug != name+"-2" || p.ClusterID != nil || kit.Deref(p.Description) != "Builds the app" ||
						kit.Deref(p.DefaultCommandStepTimeout) != 45 || kit.Deref(p.MaximumCommandStepTimeout) != 60 || len(p.Tags) != 1 {
						return fmt.Errorf("service has %+v", p)
					}
					return nil
				}),
			}),
		),
	})
}

func TestAccPipelineResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := e.Config(testAccPipelineConfig(e.Name("gone"), ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.CheckExists(acctest.PipelineAddr), e.RemoveOutside(acctest.PipelineAddr)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionCreate)},
				},
				Check: e.CheckExists(acctest.PipelineAddr),
			},
		},
	})
}

// TestAccPipelineResource_defaultSteps: without steps and without a template the pipeline gets the standard
// upload step and plans empty; empty strings and empty sets do not drift (#531, #1152).
func TestAccPipelineResource_defaultSteps(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{{
			Config: e.Config(testAccPipelineConfig(e.Name("default"), `
  description          = ""
  branch_configuration = ""
  tags                 = []
  provider_settings    = {}`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.StateIs("steps", knownvalue.StringExact(buildkite.DefaultSteps)),
				acctest.StateIs("description", knownvalue.StringExact("")),
				acctest.StateIs("branch_configuration", knownvalue.StringExact("")),
				acctest.StateIs("tags", knownvalue.SetSizeExact(0)),
			},
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

// TestAccPipelineResource_stepsFormatting: steps with CRLF line endings, a byte-order mark and extra trailing
// newlines apply without "inconsistent result" and plan empty (#853), although the service stores them
// normalised; a change of meaning still shows.
func TestAccPipelineResource_stepsFormatting(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("crlf")
	written := `"\ufeffsteps:\r\n  - label: build\r\n    command: make\r\n\r\n\r\n"`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccPipelineConfig(name, "  steps = "+written)),
				Check: e.CheckPipeline(func(p *buildkite.Pipeline) error {
					if p.Configuration == nil || strings.Contains(*p.Configuration, "\r") || strings.HasPrefix(*p.Configuration, "\ufeff") {
						return fmt.Errorf("the service should store the steps normalised, has %q", *p.Configuration)
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("steps", knownvalue.StringExact("\ufeffsteps:\r\n  - label: build\r\n    command: make\r\n\r\n\r\n")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, `  steps = "steps:\r\n  - label: build\r\n    command: make all\r\n"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.CheckPipeline(func(p *buildkite.Pipeline) error {
					if !strings.Contains(*p.Configuration, "make all") {
						return fmt.Errorf("steps not updated: %q", *p.Configuration)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccPipelineResource_importIntoState: a pipeline brought under a new state from its ID alone (as after
// an upgrade, or an import block) refreshes every computed value, so a hand-written configuration in the
// official provider's spellings plans no change (#1116, #1089, #1191).
func TestAccPipelineResource_importIntoState(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("upgrade")
	body := `
  steps      = "steps:\r\n  - command: make\r\n"
  visibility = "PRIVATE"
  provider_settings = {
    build_tags = true
  }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccPipelineConfig(name, body))},
			{
				// Forget it without deleting it.
				Config: e.Config(fmt.Sprintf(`
resource "buildkite_cluster" "ci" {
  name = "%s-cluster"
}

removed {
  from = buildkite_pipeline.test
  lifecycle {
    destroy = false
  }
}`, name)),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, body) + fmt.Sprintf(`
import {
  to = buildkite_pipeline.test
  id = %q
}`, strings.ToLower(name))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("slug", knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("build_tags"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("provider_settings").AtMapKey("trigger_mode"), knownvalue.StringExact("code")),
				},
			},
		},
	})
}

// TestAccPipelineResource_slug: a set slug is used and updated in place; unset again with a rename, the
// slug derived from the new name is planned and applied, as the official provider's users expect of a
// removed slug (#903, #954, #606).
func TestAccPipelineResource_slug(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("slug")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:            e.Config(testAccPipelineConfig(name, `  slug = "custom-one"`)),
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("slug", knownvalue.StringExact("custom-one"))},
				ConfigPlanChecks:  acctest.ExpectEmpty(),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, `  slug = "custom-two"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("slug", knownvalue.StringExact("custom-two")),
					acctest.StateIs("url", knownvalue.StringRegexp(acctest.RegexpMust(`/pipelines/custom-two$`))),
				},
			},
			{
				Config: e.Config(testAccPipelineConfig(name+" Renamed", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("slug"), knownvalue.StringExact(name+"-renamed")),
						plancheck.ExpectUnknownValue(acctest.PipelineAddr, tfjsonpath.New("builds_url")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("slug", knownvalue.StringExact(name+"-renamed"))},
			},
		},
	})
}

// TestAccPipelineResource_renamedOutside: renamed outside Terraform (so its slug changed), the pipeline is
// found again by its UUID and planned back, never re-created.
func TestAccPipelineResource_renamedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("moved")
	cfg := e.Config(testAccPipelineConfig(name, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					other := "Elsewhere " + name
					_, err := e.Client.Pipelines.Update(context.Background(), acctest.PipelineAttr(s, "slug"), buildkite.PipelineUpdate{Name: &other})
					return err
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("name", knownvalue.StringExact(name)),
					acctest.StateIs("slug", knownvalue.StringExact(name)),
				},
			},
		},
	})
}

// TestAccPipelineResource_archived: archive and unarchive through their endpoints; an update to an archived
// pipeline unarchives first and archives last (#1162); archive_on_delete archives instead of deleting
// (#421, #508).
func TestAccPipelineResource_archived(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("archive")
	e.LeaveNoneNamed("buildkite_pipeline", name) // archive_on_delete archives it
	archived := func(want bool) resource.TestCheckFunc {
		return e.CheckPipeline(func(p *buildkite.Pipeline) error {
			if p.Archived() != want {
				return fmt.Errorf("archived = %v, want %v", p.Archived(), want)
			}
			return nil
		})
	}
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		// Destroyed with archive_on_delete: still there, archived.
		CheckDestroy: func(*terraform.State) error {
			p, err := e.Client.Pipelines.Find(context.Background(), id, "")
			if err != nil {
				return fmt.Errorf("the pipeline should have been archived, not deleted: %w", err)
			}
			if !p.Archived() {
				return fmt.Errorf("the pipeline was neither deleted nor archived")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:           e.Config(testAccPipelineConfig(name, "  archived = true")),
				Check:            resource.ComposeTestCheckFunc(archived(true), func(s *terraform.State) error { id = acctest.PipelineAttr(s, "id"); return nil }),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config:           e.Config(testAccPipelineConfig(name, "  archived = true\n  description = \"changed while archived\"")),
				Check:            resource.ComposeTestCheckFunc(archived(true), resource.TestCheckResourceAttr(acctest.PipelineAddr, "description", "changed while archived")),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config:           e.Config(testAccPipelineConfig(name, "  archive_on_delete = true")),
				Check:            archived(false),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, "  archive_on_delete = true")),
				Check: func(s *terraform.State) error {
					_, err := e.Client.Pipelines.Archive(context.Background(), acctest.PipelineAttr(s, "slug"))
					return err
				},
				ExpectNonEmptyPlan: true, // archived outside Terraform: planned back to unarchived
			},
			{
				Config:           e.Config(testAccPipelineConfig(name, "  archive_on_delete = true")),
				Check:            archived(false),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

// TestAccPipelineResource_defaultTeam: default_team_id gives the team manage access at creation; access
// changed outside Terraform neither fails the refresh nor shows (#965); a new default team gets the access
// and the old one loses it.
func TestAccPipelineResource_defaultTeam(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("team")
	teams := make([]string, 2)
	for i := range teams {
		teams[i] = e.SeedTeam(fmt.Sprintf("%s-team-%d", name, i)).ID
	}
	access := func(team string) string { return teamAccess(e, team, name) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccPipelineConfig(name, fmt.Sprintf("  default_team_id = %q", teams[0]))),
				Check: func(*terraform.State) error {
					if got := access(teams[0]); got != "manage_build_and_read" {
						return fmt.Errorf("team access = %q", got)
					}
					// Someone lowers the team's access outside Terraform.
					apiCall(e, http.MethodPatch, "/teams/"+teams[0]+"/pipelines/"+pipelineID(e, name), `{"access_level":"read_only"}`)
					return nil
				},
			},
			{
				Config:           e.Config(testAccPipelineConfig(name, fmt.Sprintf("  default_team_id = %q", teams[0]))),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: e.Config(testAccPipelineConfig(name, fmt.Sprintf("  default_team_id = %q", teams[1]))),
				Check: func(*terraform.State) error {
					if a, b := access(teams[0]), access(teams[1]); a != "" || b != "manage_build_and_read" {
						return fmt.Errorf("old team's access = %q, new team's = %q", a, b)
					}
					return nil
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

// TestAccPipelineResource_onlyChangesSent: an update sends only what changed, so a token that may not change
// visibility can still change a description (#1069).
func TestAccPipelineResource_onlyChangesSent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var patches []string
	record := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/pipelines/") {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				mu.Lock()
				patches = append(patches, string(body))
				mu.Unlock()
			}
			next.ServeHTTP(w, r)
		})
	}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, record)
	name := e.Name("patch")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccPipelineConfig(name, "  visibility = \"public\"\n  description = \"a\""))},
			{
				Config: e.Config(testAccPipelineConfig(name, "  visibility = \"public\"\n  description = \"b\"")),
				Check: func(*terraform.State) error {
					mu.Lock()
					defer mu.Unlock()
					if len(patches) != 1 || patches[0] != `{"description":"b"}` {
						return fmt.Errorf("updates sent: %q", patches)
					}
					return nil
				},
			},
		},
	})
}

func TestAccPipelineResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccPipelineConfig("x", `  slug = "-bad"`)), ExpectError: acctest.RegexpMust(`slug`), PlanOnly: true},
			{Config: e.Config(testAccPipelineConfig("x", `  visibility = "secret"`)), ExpectError: acctest.Wrapped(`Attribute visibility value must be one of: ["PUBLIC" "PRIVATE"], got: "secret"`), PlanOnly: true},
			{Config: e.Config(testAccPipelineConfig("x", `  steps = "steps: [\n"`)), ExpectError: acctest.RegexpMust(`steps must be valid YAML`), PlanOnly: true},
			{Config: e.Config(testAccPipelineConfig("x", `  cluster_id = "Q2x1c3Rlci0tLTQy"`)), ExpectError: acctest.RegexpMust(`must be a UUID`), PlanOnly: true},
			{Config: e.Config(testAccPipelineConfig("", "")), ExpectError: acctest.RegexpMust(`name must contain a character`), PlanOnly: true},
		},
	})
}

// ---- helpers for seeding and inspecting through the API ----

// apiCall sends a request under /v2/organizations/{org} with the test token and returns the body; it fails
// the test on an error status.
func apiCall(e *acctest.TestEnv, method, path, body string) []byte {
	e.T.Helper()
	req, err := http.NewRequest(method, e.URL+"/v2/organizations/"+e.Org+path, strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.Token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 && resp.StatusCode != http.StatusNotFound {
		e.T.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, out)
	}
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	return out
}

// seedTeam creates a team and returns its ID.

// pipelineID returns the UUID of the pipeline with slug.
func pipelineID(e *acctest.TestEnv, slug string) string {
	e.T.Helper()
	p, err := e.Client.Pipelines.Get(context.Background(), slug)
	if err != nil {
		e.T.Fatal(err)
	}
	return p.ID
}

// teamAccess is the team's access level to the pipeline with slug, or "" for none.
func teamAccess(e *acctest.TestEnv, team, slug string) string {
	e.T.Helper()
	out := apiCall(e, http.MethodGet, "/teams/"+team+"/pipelines/"+pipelineID(e, slug), "")
	if out == nil {
		return ""
	}
	var a struct {
		AccessLevel string `json:"access_level"`
	}
	mustUnmarshal(e.T, out, &a)
	return a.AccessLevel
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

func TestAccPipelineResource_importErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	for id, want := range map[string]string{
		// GraphQL IDs are accepted: one of a pipeline no one has is not found, one of another type is refused.
		kit.GraphQLID("Pipeline", acctest.UnknownUUID): `Unable to Import Pipeline`,
		acctest.ClusterGraphQLID:                       `is the GraphQL ID of a Cluster (` + acctest.TestUUID + `), not of a Pipeline`,
		"no-such-pipeline":                             `Unable to Import Pipeline`,
		"00000000-0000-0000-0000-000000000000":         `Unable to Import Pipeline`,
	} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: e.Factories(),
			Steps: []resource.TestStep{{
				Config:        e.Config(testAccPipelineConfig("x", "")),
				ResourceName:  acctest.PipelineAddr,
				ImportState:   true,
				ImportStateId: id,
				ExpectError:   acctest.Wrapped(want),
			}},
		})
	}
}

// TestAccPipelineResource_graphQLReferences names the cluster and the default team by GraphQL ID, as the
// official provider's configurations do: the pipeline is created in them, switching to UUIDs and back plans
// nothing, and the GraphQL-only emoji and color are kept as configured.
func TestAccPipelineResource_graphQLReferences(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("graphql")
	team := e.SeedTeam(e.Name("graphql-team"))
	config := func(cluster, teamID string) string {
		return e.Config(testAccPipelineConfig(name, fmt.Sprintf(`
  cluster_id      = %s
  default_team_id = %q
  emoji           = ":rocket:"
  color           = "#ff0000"`, cluster, teamID)))
	}
	byGraphQL := config("buildkite_cluster.ci.graphql_id", team.GraphQLID)
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: byGraphQL,
				Check: resource.ComposeTestCheckFunc(
					e.CheckPipeline(func(p *buildkite.Pipeline) error {
						if p.ClusterID == nil || teamAccess(e, team.ID, p.Slug) != "manage_build_and_read" {
							return fmt.Errorf("service has cluster %v and team access %q", p.ClusterID, teamAccess(e, team.ID, p.Slug))
						}
						return nil
					}),
					resource.TestCheckResourceAttrPair(acctest.PipelineAddr, "cluster_id", "buildkite_cluster.ci", "graphql_id"),
					resource.TestCheckResourceAttrPair(acctest.PipelineAddr, "cluster_name", "buildkite_cluster.ci", "name"),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("default_team_id", knownvalue.StringExact(team.GraphQLID)),
					acctest.StateIs("emoji", knownvalue.StringExact(":rocket:")),
					acctest.StateIs("color", knownvalue.StringExact("#ff0000")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{Config: config("buildkite_cluster.ci.id", team.ID), ConfigPlanChecks: empty},
			{Config: byGraphQL, ConfigPlanChecks: empty},
		},
	})
}

// TestAccPipelineResource_clusterNameByListing: cluster_name costs a refresh one listing of the clusters for
// every pipeline, not a call per pipeline.
func TestAccPipelineResource_clusterNameByListing(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("counts the emulator's requests")
	}
	name := e.Name("names")
	config := e.Config(testAccPipelineConfig(name, `  cluster_id = buildkite_cluster.ci.id`) + fmt.Sprintf(`
resource "buildkite_pipeline" "more" {
  count      = 3
  name       = "%s-${count.index}"
  repository = "https://github.com/acme/app.git"
  cluster_id = buildkite_cluster.ci.id
}
`, name))
	var before int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: config, Check: resource.TestCheckResourceAttrPair("buildkite_pipeline.more.2", "cluster_name", "buildkite_cluster.ci", "name")},
			{
				RefreshState: true,
				PreConfig:    func() { before = len(e.Server.Requests()) },
				Check: func(*terraform.State) error {
					clusterCalls := 0
					for _, r := range e.Server.Requests()[before:] {
						if strings.Contains(r.Path, "/clusters") {
							clusterCalls++
						}
					}
					// The cluster's own refresh and the four pipelines' names: one listing answers them all.
					if clusterCalls > 1 {
						return fmt.Errorf("the refresh made %d calls to clusters, want 1", clusterCalls)
					}
					return nil
				},
			},
		},
	})
}

// The rows of buildkite_pipeline in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_pipeline", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// The slug follows a rename in Terraform (the service derives a new one) and one outside it (Read
		// finds the pipeline by its UUID and keeps the identity current, with nothing to change).
		ResourceType: "buildkite_pipeline", Attrs: []string{"slug"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			name := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccPipelineConfig(name, `  cluster_id = buildkite_cluster.ci.id
  tags       = ["identity"]
  steps      = "steps:\n  - command: make\n"`),
				Checks:       []statecheck.StateCheck{acctest.IdentityValue(acctest.PipelineAddr, "slug", name)},
				Update:       testAccPipelineConfig(name+" Renamed", ""),
				UpdateChecks: []statecheck.StateCheck{acctest.IdentityValue(acctest.PipelineAddr, "slug", name+"-renamed")},
				More: append(acctest.Step(resource.TestStep{
					PreConfig: func() {
						other := name + " Moved"
						if _, err := e.Client.Pipelines.Update(context.Background(), name+"-renamed",
							buildkite.PipelineUpdate{Name: &other}); err != nil {
							t.Fatalf("renaming outside Terraform: %v", err)
						}
					},
					Config: e.Config(testAccPipelineConfig(name+" Moved", "")),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionNoop)},
					},
					ConfigStateChecks: append(acctest.ExpectIdentity(acctest.PipelineAddr, "slug"), acctest.IdentityValue(acctest.PipelineAddr, "slug", name+"-moved")),
				}), acctest.IdentityImportSteps(acctest.PipelineAddr)...),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_pipeline",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			return []acctest.InvalidIdentity{{Config: acctest.ImportByIdentity("buildkite_pipeline", `  name       = "No such pipeline"
  repository = "https://github.com/acme/app.git"`, "slug", "no-such-pipeline"), Message: `Unable to Import Pipeline`}}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "pipeline", Add: (*acctest.OfficialWorkspace).AddPipeline, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_pipeline.app", map[string]any{"emoji": ":rocket:", "default_timeout_in_minutes": 30.0,
				"visibility": "PRIVATE"})
			if a := w.StateAttributes("buildkite_pipeline.app"); a["clone_mirror_url"] != "https://mirror.example.com/acme/app.git" || a["color"] != "#A8D5FF" {
				t.Errorf("after the move clone_mirror_url = %v, color = %v", a["clone_mirror_url"], a["color"])
			}
			// They are applied over REST now: no warning.
			acctest.ExpectQuietPlan(t, w)
		}},
		{Name: "pipeline_v0", Add: (*acctest.OfficialWorkspace).AddPipelineV0, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_pipeline.app", map[string]any{"default_timeout_in_minutes": 30.0})
			settings, _ := w.StateAttributes("buildkite_pipeline.app")["provider_settings"].(map[string]any)
			if settings["trigger_mode"] != "code" || settings["build_pull_requests"] != true {
				t.Errorf("provider_settings after the move from its version 0 = %v", settings)
			}
		}},
		{Name: "pipeline_empty_settings", Add: (*acctest.OfficialWorkspace).AddPipelineEmptySettings, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			// Its blanks (what its test "create pipeline with empty attributes" expects) plan nothing; the refresh
			// reads the service's values, which plan nothing either.
			settings, _ := w.StateAttributes("buildkite_pipeline.app")["provider_settings"].(map[string]any)
			if settings["trigger_mode"] != "code" {
				t.Errorf("provider_settings.trigger_mode after the move and a refresh = %v, want the service's", settings["trigger_mode"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_pipeline", Run: queryPipelines},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_pipeline", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		p := e.PipelineNamed(e.Name("taken"))
		return fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name       = %q
  repository = %q
  steps      = %q
}
`, p.Name, p.Repository, *p.Configuration), p.Slug
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "pipeline, ours at version 0", TypeName: "buildkite_pipeline", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": "P", "name": "app", "slug": "app",
				"repository": "r", "steps": "steps: []", "cluster_id": acctest.OtherUUID, "description": "", "tags": []any{},
				"provider_settings": map[string]any{"trigger_mode": "code", "build_branches": true}, "archived": false},
			Want: map[string]any{"cluster_id": acctest.OtherUUID, "cluster_name": nil, "description": "", "tags": []any{},
				"default_timeout_in_minutes": nil, "emoji": nil, "skip_intermediate_builds": nil, "allow_rebuilds": true,
				"provider_settings": acctest.SettingsWith(map[string]any{"trigger_mode": "code", "build_branches": true})},
		},
		{
			Name: "pipeline, the official provider's at version 1", TypeName: "buildkite_pipeline", Version: 1,
			State: map[string]any{"id": kit.GraphQLID("Pipeline", acctest.TestUUID), "uuid": acctest.TestUUID, "name": "app", "slug": "app",
				"repository": "r", "steps": "steps: []", "cluster_id": acctest.ClusterGraphQLID, "cluster_name": "c", "description": "",
				"tags": []any{}, "default_team_id": kit.GraphQLID("Team", acctest.OtherUUID), "default_timeout_in_minutes": 30,
				"skip_intermediate_builds_branch_filter": "", "emoji": ":x:", "visibility": "PRIVATE",
				"provider_settings": map[string]any{"trigger_mode": "code", "build_release_created": true}},
			Want: map[string]any{"id": acctest.TestUUID, "cluster_id": acctest.TestUUID, "default_team_id": acctest.OtherUUID, "cluster_name": "c",
				// Optional+Computed as the official provider has them: its "" and [] are kept, not nulled.
				"description": "", "tags": []any{}, "skip_intermediate_builds_branch_filter": "", "default_timeout_in_minutes": 30.0,
				"emoji": ":x:", "visibility": "PRIVATE", "archive_on_delete": nil,
				"provider_settings": acctest.SettingsWith(map[string]any{"trigger_mode": "code", "build_release_created": true})},
		},
		{
			Name: "pipeline, the official provider's at version 0", TypeName: "buildkite_pipeline", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Pipeline", acctest.TestUUID), "name": "app", "slug": "app", "repository": "r",
				"steps": "steps: []", "provider_settings": []any{map[string]any{"trigger_mode": "none"}}},
			Want: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "provider_settings": acctest.SettingsWith(map[string]any{"trigger_mode": "none"})},
		},
		{
			Name: "pipeline, the official provider's at version 0 without settings", TypeName: "buildkite_pipeline", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Pipeline", acctest.TestUUID), "name": "app", "slug": "app", "repository": "r",
				"steps": "steps: []", "provider_settings": []any{}},
			Want: map[string]any{"id": acctest.TestUUID, "provider_settings": nil},
		},
	},
})

// queryPipelines is the row of buildkite_pipeline, whose list resource has the most filters. The archived
// pipeline and the one on a template (whose generated configuration holds both its steps and its template)
// import and plan empty too.
func queryPipelines(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
	s := e.SeedPipelines(t, base)
	bySlug := func(p *buildkite.Pipeline) queryfilter.QueryFilter { return acctest.ByIdentity("slug", p.Slug) }
	return acctest.QueryRow{
		Blocks: []string{
			"buildkite_pipeline", "named", `    name = "WEB"`,
			"buildkite_pipeline", "repository", `    repository = "acme/API"`,
			"buildkite_pipeline", "cluster", fmt.Sprintf("    cluster_id = %q", s.Cluster.ID),
			"buildkite_pipeline", "tagged", `    tag = "legacy"`,
			"buildkite_pipeline", "both", fmt.Sprintf("    tag = \"legacy\"\n    cluster_id = %q", s.Cluster.ID),
		},
		Checks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("buildkite_pipeline.all", 3),
			querycheck.ExpectLength("buildkite_pipeline.named", 1),
			querycheck.ExpectIdentity("buildkite_pipeline.named", acctest.IdentityOf("slug", s.Web.Slug)),
			querycheck.ExpectLength("buildkite_pipeline.repository", 1),
			querycheck.ExpectIdentity("buildkite_pipeline.repository", acctest.IdentityOf("slug", s.API.Slug)),
			querycheck.ExpectLength("buildkite_pipeline.cluster", 1),
			querycheck.ExpectIdentity("buildkite_pipeline.cluster", acctest.IdentityOf("slug", s.Web.Slug)),
			querycheck.ExpectLength("buildkite_pipeline.tagged", 1),
			querycheck.ExpectIdentity("buildkite_pipeline.tagged", acctest.IdentityOf("slug", s.API.Slug)),
			querycheck.ExpectLength("buildkite_pipeline.both", 0),
			querycheck.ExpectResourceDisplayName("buildkite_pipeline.all", bySlug(s.Templated), knownvalue.StringExact(base+"-templated")),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.Web), []querycheck.KnownValueCheck{
				acctest.Known("id", knownvalue.StringExact(s.Web.ID)),
				acctest.Known("cluster_id", knownvalue.StringExact(s.Cluster.ID)),
				acctest.Known("steps", knownvalue.StringExact("steps:\n  - label: build\n    command: make web\n")),
				acctest.Known("branch_configuration", knownvalue.StringExact("main release/*")),
				acctest.Known("default_team_id", knownvalue.Null()),
			}),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.API), []querycheck.KnownValueCheck{
				acctest.Known("archived", knownvalue.Bool(true)),
				acctest.Known("description", knownvalue.StringExact("")), // unset: "", as the official provider stores it
				acctest.Known("tags", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("backend"), knownvalue.StringExact("legacy")})),
			}),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.Templated),
				[]querycheck.KnownValueCheck{acctest.Known("pipeline_template_id", knownvalue.StringExact(s.Standard.UUID))}),
		},
		Refused: []acctest.QueryRefusal{{Body: `    cluster_id = "Q2x1c3Rlci0tLWFiYw=="`, Message: regexp.MustCompile(`cluster_id`)}},
		Imports: 3,
	}
}

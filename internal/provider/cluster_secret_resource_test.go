package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

func init() {
	registerTestKind("buildkite_cluster_secret", testKind{
		fake:     fakeserver.KindClusterSecret,
		storeKey: byParent("cluster_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterSecrets.Get(ctx, a["cluster_id"], a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterSecrets.Delete(ctx, a["cluster_id"], a["id"])
		},
	})
}

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
	e := newTestEnv(t)
	cluster := e.name("secrets")
	config := func(key, body string) string { return e.config(testAccClusterSecretConfig(cluster, key, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_secret"),
		Steps: steps(
			step(resource.TestStep{
				Config: config("DEPLOY_KEY", `  value       = "first-value"
  description = "Deploys"
  policy      = <<-YAML
    - pipeline_slug: app
      build_branch: main
  YAML`),
				Check: resource.ComposeTestCheckFunc(e.checkExists(secretAddr), e.checkSecretValue("first-value"),
					resource.TestCheckResourceAttrPair(secretAddr, "uuid", secretAddr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectSensitiveValue(secretAddr, tfjsonpath.New("value")),
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("value"), knownvalue.StringExact("first-value")),
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("value_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			// The value is unknown to the service's answers: an import has none.
			importSteps(secretAddr, importID(secretAddr, "cluster_id", "id"), "value"),
			step(resource.TestStep{
				// The same policy written otherwise is no change.
				Config: config("DEPLOY_KEY", `  value       = "first-value"
  description = "Deploys"
  policy      = "- {pipeline_slug: app, build_branch: main}\r\n"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			}),
			step(resource.TestStep{
				// A new value is sent in place; the description goes and the policy changes.
				Config: config("DEPLOY_KEY", `  value  = "second-value"
  policy = "- pipeline_slug: web\n"`),
				ConfigPlanChecks: inPlace(secretAddr),
				Check:            e.checkSecretValue("second-value"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("policy"), knownvalue.StringExact("- pipeline_slug: web\n")),
				},
			}),
			step(resource.TestStep{
				// A new key replaces the secret.
				Config: config("OTHER_KEY", `  value = "second-value"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(secretAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.checkExists(secretAddr), e.checkSecretValue("second-value")),
			}),
		),
	})
}

// TestAccClusterSecretResource_writeOnly keeps the value out of plan and state: a new write-only value
// alone changes nothing, a new version sends it, and a move to value (and back) sends that.
func TestAccClusterSecretResource_writeOnly(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cluster := e.name("secrets-wo")
	config := func(body string) string { return e.config(testAccClusterSecretConfig(cluster, "TOKEN", body)) }
	writeOnly := func(value, version string) string {
		return fmt.Sprintf("  value_wo         = %q\n  value_wo_version = %q", value, version)
	}
	noValueStored := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("value_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("value"), knownvalue.Null()),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_secret"),
		Steps: steps(
			step(resource.TestStep{
				Config: config(writeOnly("wo-one", "1")), Check: e.checkSecretValue("wo-one"),
				ConfigStateChecks: append(noValueStored,
					statecheck.ExpectKnownValue(secretAddr, tfjsonpath.New("value_wo_version"), knownvalue.StringExact("1"))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(secretAddr, tfjsonpath.New("id"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			importSteps(secretAddr, importID(secretAddr, "cluster_id", "id"), "value_wo_version"),
			step(resource.TestStep{
				// Terraform cannot see a write-only value change: without a new version nothing is sent.
				Config:           config(writeOnly("wo-two", "1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            e.checkSecretValue("wo-one"),
			}),
			step(resource.TestStep{
				Config: config(writeOnly("wo-two", "2")), ConfigPlanChecks: inPlace(secretAddr),
				Check: e.checkSecretValue("wo-two"), ConfigStateChecks: noValueStored,
			}),
			step(resource.TestStep{
				Config: config(`  value = "kept-in-state"`), ConfigPlanChecks: inPlace(secretAddr),
				Check: e.checkSecretValue("kept-in-state"),
			}),
			step(resource.TestStep{
				Config: config(writeOnly("wo-three", "3")), ConfigPlanChecks: inPlace(secretAddr),
				Check: e.checkSecretValue("wo-three"), ConfigStateChecks: noValueStored,
			}),
		),
	})
}

// TestAccClusterSecretResource_importTakeOver imports a secret made outside Terraform, whose value
// Terraform cannot know: a configuration without a value plans empty, and one with a value sends it.
func TestAccClusterSecretResource_importTakeOver(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	c, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.name("secrets-import")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.Clusters.Delete(context.Background(), c.ID) })
	s, err := e.client.ClusterSecrets.Create(context.Background(), c.ID, buildkite.ClusterSecretCreate{
		Key: "LEGACY", Value: "set-outside", Description: ptrTo("Made by hand"),
	})
	if err != nil {
		t.Fatal(err)
	}
	body := func(value string) string {
		return e.config(fmt.Sprintf(`
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
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config: body(""), Check: e.checkSecretValue("set-outside"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(secretAddr, plancheck.ResourceActionNoop)},
				},
			},
			{
				Config: body(`  value_wo         = "taken-over"
  value_wo_version = "1"`),
				ConfigPlanChecks: inPlace(secretAddr), Check: e.checkSecretValue("taken-over"),
			},
		},
	})
}

func TestAccClusterSecretResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.disappears(secretAddr, testAccClusterSecretConfig(e.name("secrets-gone"), "GONE", `  value = "v"`))
}

func TestAccClusterSecretResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	config := func(key, body string) string {
		return e.config(fmt.Sprintf(`
resource "buildkite_cluster_secret" "test" {
  cluster_id = %q
  key        = %q
%s
}
`, unknownUUID, key, body))
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
		plans = append(plans, resource.TestStep{Config: config(tc.key, tc.body), PlanOnly: true, ExpectError: wrapped(tc.want)})
	}
	plans = append(plans, resource.TestStep{
		Config: config("KEY", `  value = "v"`), ResourceName: secretAddr, ImportState: true, ImportStateId: "no-slash",
		ExpectError: wrapped(`Expected an import ID of the form "<cluster id>/<secret id>"`),
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.factories(), Steps: plans})
}

// TestAccClusterSecretResource_createTakenNamesHolder: a secret left behind by an apply killed before it
// recorded it holds its key, so creating it again is refused; the refusal names the secret that holds the
// key and gives the import block that adopts it.
func TestAccClusterSecretResource_createTakenNamesHolder(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ctx := context.Background()
	c, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.name("taken")})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.client.ClusterSecrets.Create(ctx, c.ID, buildkite.ClusterSecretCreate{Key: "DEPLOY_KEY", Value: "left-behind"})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config: e.config(fmt.Sprintf(`
resource "buildkite_cluster_secret" "test" {
  cluster_id = %q
  key        = "DEPLOY_KEY"
  value      = "again"
}
`, c.ID)),
			ExpectError: wrapped(fmt.Sprintf(`id = %q`, c.ID+"/"+s.ID)),
		}},
	})
}

// The rows of buildkite_cluster_secret in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_secret", typeTests{
	identity: &identityCase{
		// The value is unknown after an import, so the configuration that sets it plans an update that sends it.
		resourceType: "buildkite_cluster_secret", attrs: []string{"cluster_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			cluster := e.name("identity")
			return identityConfigs{
				create: testAccClusterSecretConfig(cluster, "TOKEN", `  value = "v"`),
				importSteps: []resource.TestStep{
					{
						ResourceName: secretAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
						ExpectNonEmptyPlan: true,
						ImportPlanChecks: resource.ImportPlanChecks{
							PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(secretAddr, plancheck.ResourceActionUpdate)},
						},
					},
					{ResourceName: secretAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity, GenerateConfig: true},
				},
				update: testAccClusterSecretConfig(cluster, "TOKEN", `  value       = "v"
  description = "Rotated monthly"`),
			}
		},
	},
	migration: []migrationCase{
		{name: "cluster_secret", add: (*officialWorkspace).addSecret, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_cluster_secret.deploy", map[string]any{"value": "moved-value", "description": "Deploys"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_cluster_secret", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		secret := func(c *buildkite.Cluster, sec *buildkite.ClusterSecret) queryfilter.QueryFilter {
			return byIdentity("cluster_id", c.ID, "id", sec.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_secret", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_secret.all", 3),
				querycheck.ExpectLength("buildkite_cluster_secret.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_secret.b", identityOf("cluster_id", s.b.ID, "id", s.otherSecret.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_secret.all", secret(s.a, s.token), knownvalue.StringExact(base+"-a / TOKEN")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_secret.all", secret(s.a, s.deployKey), []querycheck.KnownValueCheck{
					known("key", knownvalue.StringExact("DEPLOY_KEY")),
					known("description", knownvalue.StringExact("Deploys")),
					known("policy", knownvalue.StringExact("- pipeline_slug: "+s.p1.Slug+"\n")),
					known("value", knownvalue.Null()), // the service never shows it
				}),
			},
			imports: 3,
		}
	}},
	upgrade: []upgradeCase{
		{
			name: "secret, the official provider's", typeName: "buildkite_cluster_secret", version: 0,
			state: map[string]any{"id": otherUUID, "cluster_id": testUUID, "key": "DEPLOY_KEY", "value": "s3cret",
				"value_wo": nil, "value_wo_version": nil, "description": "", "policy": nil, "created_at": "c", "updated_at": "u"},
			want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_id": testUUID, "value": "s3cret",
				"description": nil, "graphql_id": nil, "updated_at": "u"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A cluster's secrets go with their cluster, which the cluster sweeper removes.",
	},
})

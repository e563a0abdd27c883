package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Import by identity (Terraform 1.12+) of every resource type; `make testacc-next` runs these. A new type
// joins with a row of identityCases, and one of invalidIdentityCases where its identity can be malformed.

// identityCase is one resource type: created as <type>.test by a configuration, its identity holds attrs
// (each equal to the state attribute of the same name); it then imports by an import block naming that
// identity, into the configuration as it stands and with a generated configuration, and keeps its identity
// through an update in place.
type identityCase struct {
	resourceType string
	attrs        []string
	// setup makes the row's configurations in a fresh environment.
	setup func(t *testing.T, e *testEnv) identityConfigs
}

// identityConfigs are one row's configurations and what is particular to the type.
type identityConfigs struct {
	create string
	// checks are more checks of the state create leaves.
	checks []statecheck.StateCheck
	// secret is an attribute the service shows only on create: an import by identity holds it null.
	secret string
	// importSteps, when set, replace the usual import steps.
	importSteps []resource.TestStep
	// update changes the resource in place (optional); updateChecks are more checks of what it leaves.
	update       string
	updateChecks []statecheck.StateCheck
	// more are steps after the update: the identity following a rename, inside Terraform or outside.
	more []resource.TestStep
	// destroyed overrides the CheckDestroy of the type's test kind.
	destroyed resource.TestCheckFunc
}

// identityValue checks the value of one identity attribute of the resource at address.
func identityValue(address, attr, want string) statecheck.StateCheck {
	return statecheck.ExpectIdentityValue(address, tfjsonpath.New(attr), knownvalue.StringExact(want))
}

var identityCases = []identityCase{
	{
		resourceType: "buildkite_cluster", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccClusterConfig(e.name("identity"), `  description = "Found by its ID"`)}
		},
	},
	{
		resourceType: "buildkite_cluster_queue", attrs: []string{"cluster_id", "key"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			cluster := e.name("identity")
			return identityConfigs{
				create: testAccClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`),
				checks: []statecheck.StateCheck{identityValue("buildkite_cluster_queue.test", "key", "linux")},
				update: testAccClusterQueueConfig(cluster, "linux", `  dispatch_paused = true`),
			}
		},
	},
	{
		resourceType: "buildkite_cluster_agent_token", attrs: []string{"cluster_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccClusterAgentTokenConfig(e.name("identity"), "a", "CI agents", `  allowed_ip_addresses = ["10.0.0.0/8"]`),
				secret: "token",
			}
		},
	},
	{
		resourceType: "buildkite_agent_token", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccAgentTokenConfig(e.name("identity")), secret: "token", destroyed: e.checkAgentTokensRevoked(),
			}
		},
	},
	{
		resourceType: "buildkite_cluster_default_queue", attrs: []string{"cluster_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create:    testAccClusterDefaultQueueConfig(e.name("identity"), "a", "a1"),
				destroyed: e.checkDefaultQueueDestroyed,
			}
		},
	},
	{
		// A rename changes the slug but not the identity, which is the UUID.
		resourceType: "buildkite_team", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccTeamConfig(e.name("identity"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				update: testAccTeamConfig(e.name("identity-renamed"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				more:   identityImportSteps("buildkite_team.test"),
			}
		},
	},
	{
		resourceType: "buildkite_team_member", attrs: []string{"team_id", "user_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			team, email := e.name("identity"), e.secondMemberEmail()
			return identityConfigs{
				create: testAccTeamMemberConfig(team, email, "member"),
				update: testAccTeamMemberConfig(team, email, "maintainer"),
			}
		},
	},
	{
		resourceType: "buildkite_pipeline_team", attrs: []string{"team_id", "pipeline_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			team, p := e.name("identity"), e.pipelineNamed(e.name("identity-pipeline"))
			return identityConfigs{
				create: testAccPipelineTeamConfig(team, p.ID, "build_and_read"),
				update: testAccPipelineTeamConfig(team, p.ID, "read_only"),
			}
		},
	},
	{
		resourceType: "buildkite_test_suite_team", attrs: []string{"team_id", "test_suite_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			suite := e.seedSuite(e.name("identity-suite"), e.team("identity-owner"))
			team := e.name("identity")
			return identityConfigs{
				create: testAccTestSuiteTeamConfig(team, suite.ID, "manage_and_read"),
				update: testAccTestSuiteTeamConfig(team, suite.ID, "read_only"),
			}
		},
	},
	{
		resourceType: "buildkite_team_registry", attrs: []string{"team_id", "registry_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			reg, team := e.seedRegistry(e.name("identity-registry")), e.name("identity")
			return identityConfigs{
				create: testAccTeamRegistryConfig(team, reg.ID, "read_and_write"),
				update: testAccTeamRegistryConfig(team, reg.ID, "read_only"),
			}
		},
	},
	{
		// The slug follows a rename in Terraform (the service derives a new one) and one outside it (Read
		// finds the pipeline by its UUID and keeps the identity current, with nothing to change).
		resourceType: "buildkite_pipeline", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccPipelineConfig(name, `  cluster_id = buildkite_cluster.ci.id
  tags       = ["identity"]
  steps      = "steps:\n  - command: make\n"`),
				checks:       []statecheck.StateCheck{identityValue(pipelineAddr, "slug", name)},
				update:       testAccPipelineConfig(name+" Renamed", ""),
				updateChecks: []statecheck.StateCheck{identityValue(pipelineAddr, "slug", name+"-renamed")},
				more: append(step(resource.TestStep{
					PreConfig: func() {
						other := name + " Moved"
						if _, err := e.client.Pipelines.Update(context.Background(), name+"-renamed",
							buildkite.PipelineUpdate{Name: &other}); err != nil {
							t.Fatalf("renaming outside Terraform: %v", err)
						}
					},
					Config: e.config(testAccPipelineConfig(name+" Moved", "")),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionNoop)},
					},
					ConfigStateChecks: append(expectIdentity(pipelineAddr, "slug"), identityValue(pipelineAddr, "slug", name+"-moved")),
				}), identityImportSteps(pipelineAddr)...),
			}
		},
	},
	{
		// The identity stays with the template through a rename.
		resourceType: "buildkite_pipeline_template", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccPipelineTemplateConfig(name, "steps:\n  - command: make\n", `  description = "Found by its ID"
  available   = true`),
				update: testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make\n", ""),
			}
		},
	},
	{
		resourceType: "buildkite_organization_rule", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccRuleConfig(e.name("identity"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.slug
    target_pipeline = buildkite_pipeline.target.uuid
  })`)}
		},
	},
	{
		// Named by its slug, which follows a rename: the identity is mutable.
		resourceType: "buildkite_test_suite", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			const addr = "buildkite_test_suite.test"
			owner, name := e.team("owners"), e.name("identity")
			return identityConfigs{
				create: testAccTestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  application_name = "web"`),
				checks: []statecheck.StateCheck{identityValue(addr, "slug", name)},
				// No read reports the owning team: the import finds it as the official provider does (the first
				// team that may manage the suite), so importing changes nothing; the API token stays unknown to
				// Terraform.
				importSteps: []resource.TestStep{
					{
						ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
						ImportPlanChecks: resource.ImportPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("team_owner_id"), knownvalue.StringExact(owner)),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.Null()),
							},
						},
					},
					{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity, GenerateConfig: true},
				},
				update:       testAccTestSuiteConfig(name+"-2", owner, ""),
				updateChecks: []statecheck.StateCheck{identityValue(addr, "slug", name+"-2")},
			}
		},
	},
	{
		// Named by its slug, which follows a rename in Terraform and one outside it (Read finds it by ID).
		resourceType: "buildkite_registry", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			const addr = "buildkite_registry.test"
			name := e.name("identity")
			return identityConfigs{
				create: testAccRegistryConfig(name, "ruby", `  description = "Gems"
  oidc_policy = "- iss: https://agent.buildkite.com"`),
				checks:       []statecheck.StateCheck{identityValue(addr, "slug", name)},
				update:       testAccRegistryConfig(name+"-2", "ruby", ""),
				updateChecks: []statecheck.StateCheck{identityValue(addr, "slug", name+"-2")},
				more: step(resource.TestStep{
					PreConfig: func() {
						elsewhere := name + "-elsewhere"
						if _, err := e.client.Registries.Update(context.Background(), name+"-2",
							buildkite.RegistryUpdate{Name: &elsewhere}); err != nil {
							t.Fatalf("renaming outside Terraform: %v", err)
						}
					},
					Config: e.config(testAccRegistryConfig(name+"-elsewhere", "ruby", "")),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					ConfigStateChecks: append(expectIdentity(addr, "slug"), identityValue(addr, "slug", name+"-elsewhere")),
				}),
			}
		},
	},
	{
		// The identity stays with the token through an update in place and a rename of its registry.
		resourceType: "buildkite_registry_token", attrs: []string{"registry_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccRegistryTokenConfig(name, "a", "CI"),
				secret: "token",
				update: testAccRegistryTokenConfig(name+"-renamed", "a", "CI agents"),
			}
		},
	},
	{
		// Named by its pipeline as the configuration names it, and its ID.
		resourceType: "buildkite_pipeline_schedule", attrs: []string{"pipeline_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			base := e.name("identity")
			return identityConfigs{
				create: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@daily"`),
				update: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@hourly"`),
			}
		},
	},
	{
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
	{
		resourceType: "buildkite_cluster_maintainer", attrs: []string{"cluster_uuid", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccClusterMaintainerConfig(e.name("identity"), e.name("identity-team"))}
		},
	},

	// Organization settings, the banner and pipeline webhooks (issue 25).
	{
		resourceType: "buildkite_organization", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			e.keepAPISettings()
			return identityConfigs{
				create:    testAccOrganizationConfig(allowlistLine("0.0.0.0/0")),
				update:    testAccOrganizationConfig(allowlistLine("0.0.0.0/0", "192.0.2.0/24")),
				destroyed: e.checkAllowlistRemoved,
			}
		},
	},
	{
		// Named by its slug, which cannot change in place; no id attribute, as in the official provider.
		resourceType: "buildkite_portal", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			slug := e.name("identity")
			return identityConfigs{
				create: testAccPortalConfig(slug, "Identity", `  description = "Named by its slug"`),
				checks: []statecheck.StateCheck{identityValue("buildkite_portal.test", "slug", slug)},
				secret: "token",
				update: testAccPortalConfig(slug, "Identity renamed", ""),
			}
		},
	},
	{
		resourceType: "buildkite_organization_banner", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			e.keepBanner()
			return identityConfigs{
				create: testAccOrganizationBannerConfig("Found by its UUID"),
				update: testAccOrganizationBannerConfig("Still found by its UUID"),
			}
		},
	},
	{
		resourceType: "buildkite_cluster_cache_registry", attrs: []string{"cluster_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			cluster := e.name("identity")
			return identityConfigs{
				create: testAccCacheRegistryConfig(cluster, "Identity", `  description = "Found by its cluster and UUID"`),
				update: testAccCacheRegistryConfig(cluster, "Identity Renamed", `  description = "Found by its cluster and UUID"`),
			}
		},
	},
	{
		// An adopted member, named by its user UUID.
		resourceType: "buildkite_organization_membership", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			if e.live {
				t.Skip("live mode: changes and removes a member")
			}
			body := func(role string) string {
				return testAccMembershipConfig(fmt.Sprintf("  email = %q\n  role = %q\n  sso_mode = \"OPTIONAL\"", e.secondMemberEmail(), role))
			}
			return identityConfigs{
				create:    body("MEMBER"),
				update:    body("ADMIN"),
				destroyed: func(*terraform.State) error { return nil },
			}
		},
	},
	{
		// Named by the organization's slug; destroying it leaves the settings as they are.
		resourceType: "buildkite_organization_pipeline_settings", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			e.keepPipelineSettings()
			return identityConfigs{
				create:    testAccPipelineSettingsConfig(`  default_branch = "identity"`),
				update:    testAccPipelineSettingsConfig(`  default_branch = "identity-changed"`),
				destroyed: func(*terraform.State) error { return nil },
			}
		},
	},
	{
		resourceType: "buildkite_pipeline_webhook", attrs: []string{"pipeline_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccPipelineWebhookConfig(name, "https://github.com/acme/"+name+".git", false, "", "") + `
resource "buildkite_pipeline_webhook" "test" {
  pipeline_id = buildkite_pipeline.app.id
  repository  = buildkite_pipeline.app.repository
}
`,
				// Destroy cannot delete a repository's webhook; the pipeline goes.
				destroyed: e.checkDestroyed("buildkite_pipeline"),
			}
		},
	},
	{
		resourceType: "buildkite_notification_service", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccWebhookServiceConfig("identity", true, "", ""),
				update: testAccWebhookServiceConfig("identity", false, "", ""),
			}
		},
	},
}

// TestAccResources_identity runs every row of identityCases.
func TestAccResources_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	for _, tc := range identityCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			c := tc.setup(t, e)
			addr := tc.resourceType + ".test"
			destroyed := c.destroyed
			if destroyed == nil {
				destroyed = e.checkDestroyed(tc.resourceType)
			}
			imports := c.importSteps
			if imports == nil {
				imports = identityImportStepsWithSecret(addr, c.secret)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				CheckDestroy:             destroyed,
				Steps: steps(
					step(resource.TestStep{
						Config:            e.config(c.create),
						ConfigStateChecks: append(expectIdentity(addr, tc.attrs...), c.checks...),
					}),
					imports,
					identityUpdateSteps(e, addr, tc.attrs, c),
					c.more,
				),
			})
		})
	}
}

// identityImportStepsWithSecret are identityImportSteps, with the plan of the first import checked to hold
// secret null where the type has one.
func identityImportStepsWithSecret(address, secret string) []resource.TestStep {
	imports := identityImportSteps(address)
	if secret != "" {
		imports[0].ImportPlanChecks.PreApply = []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(address, tfjsonpath.New(secret), knownvalue.Null()),
		}
	}
	return imports
}

// identityUpdateSteps apply a row's update, where it has one: in place, with the identity kept.
func identityUpdateSteps(e *testEnv, address string, attrs []string, c identityConfigs) []resource.TestStep {
	if c.update == "" {
		return nil
	}
	return step(resource.TestStep{
		Config: e.config(c.update),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
		},
		ConfigStateChecks: append(expectIdentity(address, attrs...), c.updateChecks...),
	})
}

// identityTest runs the steps of one identity test in a fresh environment, where rows do not fit.
func identityTest(t *testing.T, steps func(e *testEnv) []resource.TestStep) {
	t.Helper()
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.factories(), Steps: steps(e)})
}

// TestAccClusterQueueResource_identityByGraphQLID imports with the cluster's GraphQL ID in the identity and
// in the configuration, as the official provider's users name clusters: the identity in state holds the
// cluster's UUID, and the plan after the import is empty.
func TestAccClusterQueueResource_identityByGraphQLID(t *testing.T) {
	identityTest(t, func(e *testEnv) []resource.TestStep {
		c, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.name("identity-graphql")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{Key: "linux"}); err != nil {
			t.Fatal(err)
		}
		const addr = "buildkite_cluster_queue.test"
		return []resource.TestStep{{
			Config: e.config(`
import {
  to       = buildkite_cluster_queue.test
  identity = { cluster_id = "` + c.GraphQLID + `", key = "linux" }
}

resource "buildkite_cluster_queue" "test" {
  cluster_id = "` + c.GraphQLID + `"
  key        = "linux"
}
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				identityValue(addr, "cluster_id", c.ID),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("cluster_uuid"), knownvalue.StringExact(c.ID)),
			},
		}}
	})
}

// TestAccTeamResource_identityBySlug imports with the team's slug in the identity, as the import ID may name
// it: the identity in state is then the team's UUID.
func TestAccTeamResource_identityBySlug(t *testing.T) {
	identityTest(t, func(e *testEnv) []resource.TestStep {
		tm := e.seedTeam(e.name("identity-slug"))
		return []resource.TestStep{{
			Config: e.config(`
import {
  to       = buildkite_team.test
  identity = { id = "` + tm.Slug + `" }
}
` + testAccTeamConfig(tm.Name, "visible", "member", false, "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{identityValue("buildkite_team.test", "id", tm.ID)},
		}}
	})
}

// TestAccTestSuiteResource_identityRenamedOutside refreshes a suite renamed outside Terraform: Read finds it
// by ID and the identity takes its new slug (an immutable identity would fail the refresh instead).
func TestAccTestSuiteResource_identityRenamedOutside(t *testing.T) {
	identityTest(t, func(e *testEnv) []resource.TestStep {
		const addr = "buildkite_test_suite.test"
		name, owner := e.name("identity"), e.team("owners")
		renameOutside := func(s *terraform.State) error {
			elsewhere := name + "-elsewhere"
			_, err := e.client.TestSuites.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
				buildkite.TestSuiteUpdate{Name: &elsewhere})
			return err
		}
		return []resource.TestStep{
			{Config: e.config(testAccTestSuiteConfig(name, owner, "")), Check: renameOutside, ExpectNonEmptyPlan: true},
			// The configuration takes the new name: nothing to change, and the identity has the new slug.
			{
				Config: e.config(testAccTestSuiteConfig(name+"-elsewhere", owner, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(expectIdentity(addr, "slug"), identityValue(addr, "slug", name+"-elsewhere")),
			},
		}
	})
}

// invalidIdentityCase is a resource type whose import blocks can name an identity that names nothing or is
// malformed: each such plan is refused, naming the attribute or the object.
type invalidIdentityCase struct {
	resourceType string
	// setup returns the import blocks (with their resource) and the error each must give.
	setup func(e *testEnv) []invalidIdentity
}

type invalidIdentity struct{ config, message string }

// importByIdentity is an import block of <resourceType>.test naming an identity of attribute-value pairs,
// with the resource it imports into (body).
func importByIdentity(resourceType, body string, kv ...string) string {
	identity := ""
	for i := 0; i+1 < len(kv); i += 2 {
		identity += "    " + kv[i] + ` = "` + kv[i+1] + "\"\n"
	}
	return `
import {
  to       = ` + resourceType + `.test
  identity = {
` + identity + `  }
}

resource "` + resourceType + `" "test" {
` + body + `
}
`
}

var invalidIdentityCases = []invalidIdentityCase{
	{
		resourceType: "buildkite_cluster_queue",
		setup: func(e *testEnv) []invalidIdentity {
			queue := func(clusterID string) string {
				return importByIdentity("buildkite_cluster_queue", `  cluster_id = "`+unknownUUID+`"
  key        = "linux"`, "cluster_id", clusterID, "key", "linux")
			}
			return []invalidIdentity{
				{queue("Q2x1c3Rlci0tLWFiYw=="), `cluster_id (<cluster id>) "Q2x1c3Rlci0tLWFiYw==" is not a UUID`},
				{queue(unknownUUID), `Unable to Import Cluster Queue`},
			}
		},
	},
	{
		resourceType: "buildkite_team_member",
		setup: func(e *testEnv) []invalidIdentity {
			team := e.seedTeam(e.name("identity-invalid"))
			member := func(userID string) string {
				return importByIdentity("buildkite_team_member", `  team_id = "`+team.ID+`"
  user_id = "`+unknownUUID+`"
  role    = "member"`, "team_id", team.ID, "user_id", userID)
			}
			return []invalidIdentity{
				{member("someone"), `user_id (<user id>) "someone" is not a UUID`},
				{member(""), `user_id (<user id>) is empty`},
				{member(unknownUUID), `Unable to Import Team Member`}, // a user who is not in the team
			}
		},
	},
	{
		resourceType: "buildkite_pipeline",
		setup: func(e *testEnv) []invalidIdentity {
			return []invalidIdentity{{importByIdentity("buildkite_pipeline", `  name       = "No such pipeline"
  repository = "https://github.com/acme/app.git"`, "slug", "no-such-pipeline"), `Unable to Import Pipeline`}}
		},
	},
	{
		resourceType: "buildkite_pipeline_template",
		setup: func(e *testEnv) []invalidIdentity {
			return []invalidIdentity{{importByIdentity("buildkite_pipeline_template", `  name          = "standard"
  configuration = "steps: []"`, "id", "standard"), `id (<pipeline template UUID>) "standard" is not a UUID`}}
		},
	},
	{
		resourceType: "buildkite_registry_token",
		setup: func(e *testEnv) []invalidIdentity {
			token := func(id string) string {
				return importByIdentity("buildkite_registry_token", `  registry_id = "`+unknownUUID+`"
  description = "CI"`, "registry_id", unknownUUID, "id", id)
			}
			return []invalidIdentity{
				{token("not-a-token"), `id (<token id>) "not-a-token" is not a UUID`},
				{token("1c2d3e4f-5a6b-4e5f-8a9b-0b5e7c1a2f3d"), `Unable to Import Registry Token`},
			}
		},
	},
	{
		resourceType: "buildkite_pipeline_schedule",
		setup: func(e *testEnv) []invalidIdentity {
			schedule := func(pipeline, id string) string {
				return importByIdentity("buildkite_pipeline_schedule", `  pipeline_id = "no-such-pipeline"
  label       = "Nightly"
  cronline    = "@daily"
  branch      = "main"`, "pipeline_id", pipeline, "id", id)
			}
			return []invalidIdentity{
				{schedule("no-such-pipeline", "nightly"), `id (<schedule id>) "nightly" is not a UUID`},
				{schedule("no-such-pipeline", unknownUUID), `Unable to Import Pipeline Schedule`},
			}
		},
	},
	{
		resourceType: "buildkite_portal",
		setup: func(e *testEnv) []invalidIdentity {
			return []invalidIdentity{{importByIdentity("buildkite_portal", `  name  = "Missing"
  query = "{ viewer { user { name } } }"
  slug  = "no-such-portal"`, "slug", "no-such-portal"), `Cannot import non-existent remote object`}}
		},
	},
	{
		resourceType: "buildkite_notification_service",
		setup: func(e *testEnv) []invalidIdentity {
			service := func(id string) string {
				return importByIdentity("buildkite_notification_service", `  provider_type = "webhook"
  webhook       = { url = "https://example.com/h" }`, "id", id)
			}
			return []invalidIdentity{
				{service("hooks"), `id (<notification service UUID>) "hooks" is not a UUID`},
				{service(unknownUUID), `Cannot import non-existent remote object`},
			}
		},
	},
}

// TestAccResources_identityInvalid plans every row's import blocks, each of which must be refused at plan
// time with its message.
func TestAccResources_identityInvalid(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	for _, tc := range invalidIdentityCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			identityTest(t, func(e *testEnv) []resource.TestStep {
				var all []resource.TestStep
				for _, c := range tc.setup(e) {
					all = append(all, resource.TestStep{Config: e.config(c.config), PlanOnly: true, ExpectError: wrapped(c.message)})
				}
				return all
			})
		})
	}
}

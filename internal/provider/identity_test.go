package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Import by identity (Terraform 1.12+) of every resource type; `make testacc-next` runs these. A type joins
// with its row of identityCases (typeTests.identity, in its test file), and one of invalidIdentityCases
// (typeTests.invalidIdentity) where its identity can be malformed.

// identityCases is the table of identities, a view over the types' rows (typeTests.identity).
func identityCases() []identityCase {
	return tableRows(func(r typeTests) []identityCase { return one(r.identity) })
}

// TestAccResources_identity runs every row of identityCases.
func TestAccResources_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	for _, tc := range identityCases() {
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

// invalidIdentityCases is the table of malformed identities, a view over the types' rows
// (typeTests.invalidIdentity).
func invalidIdentityCases() []invalidIdentityCase {
	return tableRows(func(r typeTests) []invalidIdentityCase { return one(r.invalidIdentity) })
}

// TestAccResources_identityInvalid plans every row's import blocks, each of which must be refused at plan
// time with its message.
func TestAccResources_identityInvalid(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	for _, tc := range invalidIdentityCases() {
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

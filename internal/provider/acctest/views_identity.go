package acctest

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
func identityCases() []IdentityCase {
	return TableRows(func(r TypeTests) []IdentityCase { return One(r.Identity) })
}

// RunAccResourcesIdentity runs every row of identityCases.
func RunAccResourcesIdentity(t *testing.T) {
	RequireCLI(t, IdentityCLI)
	t.Parallel()
	for _, tc := range identityCases() {
		t.Run(tc.ResourceType, func(t *testing.T) {
			t.Parallel()
			e := NewTestEnv(t)
			c := tc.Setup(t, e)
			addr := tc.ResourceType + ".test"
			destroyed := c.Destroyed
			if destroyed == nil {
				destroyed = e.CheckDestroyed(tc.ResourceType)
			}
			imports := c.ImportSteps
			if imports == nil {
				imports = identityImportStepsWithSecret(addr, c.Secret)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				CheckDestroy:             destroyed,
				Steps: Steps(
					Step(resource.TestStep{
						Config:            e.Config(c.Create),
						ConfigStateChecks: append(ExpectIdentity(addr, tc.Attrs...), c.Checks...),
					}),
					imports,
					identityUpdateSteps(e, addr, tc.Attrs, c),
					c.More,
				),
			})
		})
	}
}

// identityImportStepsWithSecret are identityImportSteps, with the plan of the first import checked to hold
// secret null where the type has one.
func identityImportStepsWithSecret(address, secret string) []resource.TestStep {
	imports := IdentityImportSteps(address)
	if secret != "" {
		imports[0].ImportPlanChecks.PreApply = []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(address, tfjsonpath.New(secret), knownvalue.Null()),
		}
	}
	return imports
}

// identityUpdateSteps apply a row's update, where it has one: in place, with the identity kept.
func identityUpdateSteps(e *TestEnv, address string, attrs []string, c IdentityConfigs) []resource.TestStep {
	if c.Update == "" {
		return nil
	}
	return Step(resource.TestStep{
		Config: e.Config(c.Update),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
		},
		ConfigStateChecks: append(ExpectIdentity(address, attrs...), c.UpdateChecks...),
	})
}

// identityTest runs the steps of one identity test in a fresh environment, where rows do not fit.
func identityTest(t *testing.T, steps func(e *TestEnv) []resource.TestStep) {
	t.Helper()
	RequireCLI(t, IdentityCLI)
	t.Parallel()
	e := NewTestEnv(t)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: steps(e)})
}

// RunAccClusterQueueResourceIdentityByGraphQLID imports with the cluster's GraphQL ID in the identity and
// in the configuration, as the official provider's users name clusters: the identity in state holds the
// cluster's UUID, and the plan after the import is empty.
func RunAccClusterQueueResourceIdentityByGraphQLID(t *testing.T) {
	identityTest(t, func(e *TestEnv) []resource.TestStep {
		c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("identity-graphql")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{Key: "linux"}); err != nil {
			t.Fatal(err)
		}
		const addr = "buildkite_cluster_queue.test"
		return []resource.TestStep{{
			Config: e.Config(`
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
				IdentityValue(addr, "cluster_id", c.ID),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("cluster_uuid"), knownvalue.StringExact(c.ID)),
			},
		}}
	})
}

// RunAccTeamResourceIdentityBySlug imports with the team's slug in the identity, as the import ID may name
// it: the identity in state is then the team's UUID.
func RunAccTeamResourceIdentityBySlug(t *testing.T) {
	identityTest(t, func(e *TestEnv) []resource.TestStep {
		tm := e.SeedTeam(e.Name("identity-slug"))
		return []resource.TestStep{{
			Config: e.Config(`
import {
  to       = buildkite_team.test
  identity = { id = "` + tm.Slug + `" }
}
` + TeamConfig(tm.Name, "visible", "member", false, "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{IdentityValue("buildkite_team.test", "id", tm.ID)},
		}}
	})
}

// RunAccTestSuiteResourceIdentityRenamedOutside refreshes a suite renamed outside Terraform: Read finds it
// by ID and the identity takes its new slug (an immutable identity would fail the refresh instead).
func RunAccTestSuiteResourceIdentityRenamedOutside(t *testing.T) {
	identityTest(t, func(e *TestEnv) []resource.TestStep {
		const addr = "buildkite_test_suite.test"
		name, owner := e.Name("identity"), e.Team("owners")
		renameOutside := func(s *terraform.State) error {
			elsewhere := name + "-elsewhere"
			_, err := e.Client.TestSuites.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
				buildkite.TestSuiteUpdate{Name: &elsewhere})
			return err
		}
		return []resource.TestStep{
			{Config: e.Config(TestSuiteConfig(name, owner, "")), Check: renameOutside, ExpectNonEmptyPlan: true},
			// The configuration takes the new name: nothing to change, and the identity has the new slug.
			{
				Config: e.Config(TestSuiteConfig(name+"-elsewhere", owner, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(ExpectIdentity(addr, "slug"), IdentityValue(addr, "slug", name+"-elsewhere")),
			},
		}
	})
}

// invalidIdentityCases is the table of malformed identities, a view over the types' rows
// (typeTests.invalidIdentity).
func invalidIdentityCases() []InvalidIdentityCase {
	return TableRows(func(r TypeTests) []InvalidIdentityCase { return One(r.InvalidIdentity) })
}

// RunAccResourcesIdentityInvalid plans every row's import blocks, each of which must be refused at plan
// time with its message.
func RunAccResourcesIdentityInvalid(t *testing.T) {
	RequireCLI(t, IdentityCLI)
	t.Parallel()
	for _, tc := range invalidIdentityCases() {
		t.Run(tc.ResourceType, func(t *testing.T) {
			identityTest(t, func(e *TestEnv) []resource.TestStep {
				var all []resource.TestStep
				for _, c := range tc.Setup(e) {
					all = append(all, resource.TestStep{Config: e.Config(c.Config), PlanOnly: true, ExpectError: Wrapped(c.Message)})
				}
				return all
			})
		})
	}
}

package acctest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// associationCases is the table of association types, a view over the types' rows (typeTests.association).
func associationCases() []AssociationCase {
	return TableRows(func(r TypeTests) []AssociationCase { return One(r.Association) })
}

// RunAccAssociations runs every association type through one life: create, import (verified, and with a
// generated configuration that plans empty), an update in place where the type has one, a replacement when
// the parent changes, a deletion outside Terraform that the next plan re-creates, and destroy.
func RunAccAssociations(t *testing.T) {
	t.Parallel()
	for _, tc := range associationCases() {
		t.Run(tc.ResourceType, func(t *testing.T) {
			t.Parallel()
			e := NewTestEnv(t)
			config := tc.Setup(t, e)
			addr := tc.ResourceType + ".test"
			value := tc.Values[len(tc.Values)-1]
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				CheckDestroy:             e.CheckDestroyed(tc.ResourceType),
				Steps: Steps(
					Step(resource.TestStep{
						Config: e.Config(config("a", tc.Values[0])),
						Check:  e.CheckExists(addr),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					}),
					ImportSteps(addr, ImportID(addr, tc.ImportAttrs...)),
					associationGraphQLSteps(e, addr, config("a", tc.Values[0]), tc.ImportAttrs),
					associationUpdateSteps(e, addr, config, tc.Values),
					Step(resource.TestStep{
						Config: e.Config(config("b", value)),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: e.CheckExists(addr),
					}),
					Step(resource.TestStep{
						Config: e.Config(config("b", value)), Check: e.RemoveOutside(addr), ExpectNonEmptyPlan: true,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
						},
					}),
					Step(resource.TestStep{Config: e.Config(config("b", value)), Check: e.CheckExists(addr)}),
				),
			})
		})
	}
}

// associationUpdateSteps changes the association's field in place, where the type has a second value.
func associationUpdateSteps(e *TestEnv, addr string, config func(parent, value string) string, values []string) []resource.TestStep {
	if len(values) < 2 {
		return nil
	}
	return Step(resource.TestStep{
		Config: e.Config(config("a", values[1])),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		Check: e.CheckExists(addr),
	})
}

// referenceTypes are the GraphQL types of the associations' references.
var referenceTypes = map[string]string{"team_id": "Team", "user_id": "User", "pipeline_id": "Pipeline", "test_suite_id": "Suite",
	"cluster_uuid": "Cluster"}

// referenceLine is a reference attribute's line in a configuration.
var referenceLine = regexp.MustCompile(`(?m)^(\s*)(team_id|user_id|pipeline_id|test_suite_id|cluster_uuid)(\s*=\s*)(.+)$`)

// byGraphQLIDs rewrites a configuration's references to name their objects by GraphQL ID, as the official
// provider's configurations do.
func byGraphQLIDs(config string) string {
	return referenceLine.ReplaceAllStringFunc(config, func(line string) string {
		m := referenceLine.FindStringSubmatch(line)
		return fmt.Sprintf(`%s%s%sprovider::buildkite::graphql_id(%q, %s)`, m[1], m[2], m[3], referenceTypes[m[2]], m[4])
	})
}

// associationGraphQLSteps import the association by the GraphQL IDs of its two sides, then name the sides by
// GraphQL ID in the configuration, which plans nothing.
func associationGraphQLSteps(e *TestEnv, addr, config string, sides []string) []resource.TestStep {
	return []resource.TestStep{
		{
			ResourceName: addr, ImportState: true, ImportStateVerify: true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				a := s.RootModule().Resources[addr].Primary.Attributes
				ids := make([]string, len(sides))
				for i, side := range sides {
					ids[i] = a[side]
					if typ := referenceTypes[side]; typ != "" { // the association's own ID has no GraphQL form here
						ids[i] = kit.GraphQLID(typ, a[side])
					}
				}
				return strings.Join(ids, "/"), nil
			},
		},
		{
			Config:           e.Config(byGraphQLIDs(config)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		},
	}
}

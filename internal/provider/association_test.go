package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// associationCase is one association type in TestAccAssociations: what it links and how its configuration
// reads. A new association type joins the test with a row (and the testKind its resource test file
// registers, which CheckDestroy and the deletion outside Terraform use).
type associationCase struct {
	resourceType string
	// importAttrs are the state attributes whose values, joined by "/", make the import ID.
	importAttrs []string
	// values are the association's own field as the configuration sets it: the first on create, the second
	// (where the type has a field it changes in place) on update.
	values []string
	// setup makes, in a fresh environment, what the association links, and returns its configuration: the
	// association under parent "a" or "b" (both declared in every configuration, so that a change of parent
	// only replaces the association) with its field set to value.
	setup func(t *testing.T, e *testEnv) func(parent, value string) string
}

var associationCases = []associationCase{
	{
		resourceType: "buildkite_team_member",
		importAttrs:  []string{"team_id", "user_id"},
		values:       []string{"MEMBER", "maintainer"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-member")
			email := e.secondMemberEmail()
			return func(parent, role string) string {
				return teams + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_team_member" "test" {
  team_id = buildkite_team.%s.id
  user_id = data.buildkite_organization_member.m.id
  role    = %q
}
`, email, parent, role)
			}
		},
	},
	{
		resourceType: "buildkite_pipeline_team",
		importAttrs:  []string{"team_id", "pipeline_id"},
		values:       []string{"READ_ONLY", "build_and_read"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-pipeline")
			p := e.pipelineNamed(e.name("assoc-pipeline"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = buildkite_team.%s.id
  pipeline_id  = %q
  access_level = %q
}
`, parent, p.ID, level)
			}
		},
	},
	{
		resourceType: "buildkite_test_suite_team",
		importAttrs:  []string{"team_id", "test_suite_id"},
		values:       []string{"READ_ONLY", "manage_and_read"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-suite")
			suite := e.seedSuite(e.name("assoc-suite"), e.team("assoc-suite-owner"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = buildkite_team.%s.id
  test_suite_id = %q
  access_level  = %q
}
`, parent, suite.ID, level)
			}
		},
	},
	{
		resourceType: "buildkite_team_registry",
		importAttrs:  []string{"team_id", "registry_id"},
		values:       []string{"READ_ONLY", "read_write_and_admin"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-registry")
			reg := e.seedRegistry(e.name("assoc-registry"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_team_registry" "test" {
  team_id      = buildkite_team.%s.id
  registry_id  = %q
  access_level = %q
}
`, parent, reg.ID, level)
			}
		},
	},
	{
		// An assignment with an ID of its own, which nothing changes in place: every change replaces it.
		resourceType: "buildkite_cluster_maintainer",
		importAttrs:  []string{"cluster_uuid", "id"},
		values:       []string{"user"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			clusters := twoClusters(e, "assoc-maintainer")
			email := e.secondMemberEmail()
			return func(parent, _ string) string {
				return clusters + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = buildkite_cluster.%s.uuid
  user_uuid    = data.buildkite_organization_member.m.id
}
`, email, parent)
			}
		},
	},
}

// twoTeams declares teams "a" and "b", named after base.
func twoTeams(e *testEnv, base string) string {
	cfg := ""
	for _, name := range []string{"a", "b"} {
		cfg += fmt.Sprintf(`
resource "buildkite_team" %q {
  name                = %q
  privacy             = "visible"
  default_team        = false
  default_member_role = "member"
}
`, name, e.name(base+"-"+name))
	}
	return cfg
}

// TestAccAssociations runs every association type through one life: create, import (verified, and with a
// generated configuration that plans empty), an update in place where the type has one, a replacement when
// the parent changes, a deletion outside Terraform that the next plan re-creates, and destroy.
func TestAccAssociations(t *testing.T) {
	t.Parallel()
	for _, tc := range associationCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			config := tc.setup(t, e)
			addr := tc.resourceType + ".test"
			value := tc.values[len(tc.values)-1]
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				CheckDestroy:             e.checkDestroyed(tc.resourceType),
				Steps: steps(
					step(resource.TestStep{
						Config: e.config(config("a", tc.values[0])),
						Check:  e.checkExists(addr),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					}),
					importSteps(addr, importID(addr, tc.importAttrs...)),
					associationGraphQLSteps(e, addr, config("a", tc.values[0]), tc.importAttrs),
					associationUpdateSteps(e, addr, config, tc.values),
					step(resource.TestStep{
						Config: e.config(config("b", value)),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: e.checkExists(addr),
					}),
					step(resource.TestStep{
						Config: e.config(config("b", value)), Check: e.removeOutside(addr), ExpectNonEmptyPlan: true,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
						},
					}),
					step(resource.TestStep{Config: e.config(config("b", value)), Check: e.checkExists(addr)}),
				),
			})
		})
	}
}

// associationUpdateSteps changes the association's field in place, where the type has a second value.
func associationUpdateSteps(e *testEnv, addr string, config func(parent, value string) string, values []string) []resource.TestStep {
	if len(values) < 2 {
		return nil
	}
	return step(resource.TestStep{
		Config: e.config(config("a", values[1])),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		Check: e.checkExists(addr),
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
func associationGraphQLSteps(e *testEnv, addr, config string, sides []string) []resource.TestStep {
	return []resource.TestStep{
		{
			ResourceName: addr, ImportState: true, ImportStateVerify: true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				a := s.RootModule().Resources[addr].Primary.Attributes
				ids := make([]string, len(sides))
				for i, side := range sides {
					ids[i] = a[side]
					if typ := referenceTypes[side]; typ != "" { // the association's own ID has no GraphQL form here
						ids[i] = graphQLID(typ, a[side])
					}
				}
				return strings.Join(ids, "/"), nil
			},
		},
		{
			Config:           e.config(byGraphQLIDs(config)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		},
	}
}

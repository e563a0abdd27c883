package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// nodeImportID is the association's own GraphQL ID, the official provider's import ID, which REST never
// shows: the emulator's store tells it.
func nodeImportID(e *acctest.TestEnv, addr string, kind fakeserver.Kind, otherAttr string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		a := s.RootModule().Resources[addr].Primary.Attributes
		id := e.Server.Store().TeamLinkGraphQLID(kind, e.Org, a["team_id"], a[otherAttr])
		if id == "" {
			return "", fmt.Errorf("the emulator has no %s from team %s to %s", kind, a["team_id"], a[otherAttr])
		}
		return id, nil
	}
}

// TestAccAssociationResource_importByGraphQLID: the official provider's import IDs of the team associations
// (TeamMember, TeamPipeline, TeamSuite GraphQL IDs) are resolved with node(id:) into their two sides and
// import the same state as "<team>/<other>"; one the service does not know fails as not found, and one of
// another association's type is still refused by the ID rule.
func TestAccAssociationResource_importByGraphQLID(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the REST API never shows an association's own GraphQL ID, which this test imports by")
	}
	owner := e.SeedTeam(e.Name("gid-owner"))
	suite := e.SeedSuite(e.Name("gid-suite"), owner.ID)
	p := e.PipelineNamed(e.Name("gid-pipe"))
	const member, access, suiteAccess = "buildkite_team_member.test", "buildkite_pipeline_team.test", "buildkite_test_suite_team.test"
	cfg := e.Config(acctest.TeamMemberConfig(e.Name("gid-team"), e.SecondMemberEmail(), "MAINTAINER") + fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = buildkite_team.test.id
  pipeline_id  = %q
  access_level = "BUILD_AND_READ"
}

resource "buildkite_test_suite_team" "test" {
  team_id       = buildkite_team.test.id
  test_suite_id = %q
  access_level  = "READ_ONLY"
}
`, p.ID, suite.ID))
	importBy := func(addr string, kind fakeserver.Kind, other string) resource.TestStep {
		return resource.TestStep{
			ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: nodeImportID(e, addr, kind, other),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			importBy(member, fakeserver.KindTeamMember, "user_id"),
			importBy(access, fakeserver.KindTeamPipeline, "pipeline_id"),
			importBy(suiteAccess, fakeserver.KindTeamSuite, "test_suite_id"),
			{
				ResourceName: member, ImportState: true, ImportStateId: kit.GraphQLID("TeamMember", acctest.UnknownUUID),
				ExpectError: regexp.MustCompile(`(?s)Cannot import non-existent remote object.*no team member`),
			},
			{
				// A team's access to a pipeline is no membership: the ID rule refuses it, as before.
				ResourceName: member, ImportState: true, ImportStateIdFunc: nodeImportID(e, access, fakeserver.KindTeamPipeline, "pipeline_id"),
				ExpectError: regexp.MustCompile(`Invalid Import ID`),
			},
		},
	})
}

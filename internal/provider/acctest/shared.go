package acctest

import (
	"fmt"
)

// What the test files of one area share with another's, or with the provider's tests: each area's tests
// are a package of their own, so what they share is the harness's. Grouped by the test file it came from.

// From cluster_queue_resource.
func ClusterQueueConfig(cluster, key, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_queue" "test" {
  cluster_id = buildkite_cluster.test.id
  key        = %q
%s
}
`, cluster, key, extra)
}

// From cluster_resource.
func ClusterConfig(name, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
%s
}
`, name, extra)
}

// From organization_pipeline_settings_resource.
func PipelineSettingsConfig(body string) string {
	return fmt.Sprintf(`
resource "buildkite_organization_pipeline_settings" "test" {
%s
}
`, body)
}

// From team_member_resource.
// testAccTeamMemberConfig is a team named team with the member of email in role.
func TeamMemberConfig(team, email, role string) string {
	return TeamMemberConfigIn(team, "buildkite_team.test", email, role)
}

// testAccTeamMemberConfigIn is testAccTeamMemberConfig with a second team, "other", and the membership in
// the team at teamAddr.
func TeamMemberConfigIn(team, teamAddr, email, role string) string {
	return TeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_team_member" "test" {
  team_id = %s.id
  user_id = data.buildkite_organization_member.m.id
  role    = %q
}
`, email, teamAddr, role)
}

// From team_resource.
// testAccTeamConfig is a team with the three required enums and booleans; extra adds attributes.
func TeamConfig(name, privacy, role string, defaultTeam bool, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_team" "test" {
  name                = %q
  privacy             = %q
  default_team        = %t
  default_member_role = %q
%s
}
`, name, privacy, defaultTeam, role, extra)
}

// From test_suite_resource.
func TestSuiteConfig(name, teamID, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_test_suite" "test" {
  name           = %q
  default_branch = "main"
  team_owner_id  = %q
%s
}
`, name, teamID, extra)
}

data "buildkite_organization_member" "sam" {
  email = "sam@example.com"
}

resource "buildkite_team_member" "sam" {
  team_id = buildkite_team.platform.id
  user_id = data.buildkite_organization_member.sam.id
  role    = "maintainer"
}

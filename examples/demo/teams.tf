# The demo's team: the emulator's organization has an administrator (the token's user) and one more member,
# looked up here by e-mail address and added to the team as a maintainer.
data "buildkite_organization_member" "second" {
  email = "second-member@example.com"
}

resource "buildkite_team" "platform" {
  name                = "Platform"
  description         = "Runs the platform cluster"
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "member"
}

resource "buildkite_team_member" "second" {
  team_id = buildkite_team.platform.id
  user_id = data.buildkite_organization_member.second.id
  role    = "maintainer"
}

output "team_slug" {
  value = buildkite_team.platform.slug
}

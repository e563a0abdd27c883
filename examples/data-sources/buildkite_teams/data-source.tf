data "buildkite_teams" "all" {}

# Only the teams a user is a member of.
data "buildkite_teams" "of_sam" {
  user_id = data.buildkite_organization_member.sam.id
}

output "team_slugs" {
  value = data.buildkite_teams.all.teams[*].slug
}

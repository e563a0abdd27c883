data "buildkite_team_members" "platform" {
  team_id = buildkite_team.platform.id
}

output "maintainers" {
  value = [for m in data.buildkite_team_members.platform.members : m.user_name if m.role == "maintainer"]
}

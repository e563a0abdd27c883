# The registry is created for the platform team, which gets READ_WRITE_AND_ADMIN access; the everyone team
# is given read access on top.
resource "buildkite_registry" "gems" {
  name      = "gems"
  ecosystem = "ruby"
  team_ids  = [buildkite_team.platform.id]
}

resource "buildkite_team_registry" "gems_everyone" {
  team_id      = buildkite_team.everyone.id
  registry_id  = buildkite_registry.gems.id
  access_level = "read_only"
}

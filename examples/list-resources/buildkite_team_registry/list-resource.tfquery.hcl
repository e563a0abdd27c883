# The teams with access to one registry; without config, those of every registry.
list "buildkite_team_registry" "gems" {
  provider = buildkite

  config {
    registry_id = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

# The team named Platform; without config, every team.
list "buildkite_team" "platform" {
  provider = buildkite

  config {
    name = "Platform"
  }
}

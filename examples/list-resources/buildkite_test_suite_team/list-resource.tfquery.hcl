# The test suites one team can reach; without config, those of every team.
list "buildkite_test_suite_team" "platform" {
  provider = buildkite

  config {
    team_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

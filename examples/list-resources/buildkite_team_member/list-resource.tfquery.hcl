# The members of one team; without config, those of every team.
list "buildkite_team_member" "platform" {
  provider = buildkite

  config {
    team_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

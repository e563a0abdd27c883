# A team's access to a registry is named by the team's UUID and the registry's.
import {
  to = buildkite_team_registry.gems_everyone
  identity = {
    team_id     = "01234567-89ab-cdef-0123-456789abcdef"
    registry_id = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

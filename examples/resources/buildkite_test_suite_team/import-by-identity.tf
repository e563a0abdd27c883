# A team's access to a test suite is named by the team's UUID and the suite's.
import {
  to = buildkite_test_suite_team.platform_unit
  identity = {
    team_id       = "01234567-89ab-cdef-0123-456789abcdef"
    test_suite_id = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

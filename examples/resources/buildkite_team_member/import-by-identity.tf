# A membership is named by the team's UUID and the user's.
import {
  to = buildkite_team_member.sam
  identity = {
    team_id = "01234567-89ab-cdef-0123-456789abcdef"
    user_id = "89abcdef-0123-4567-89ab-cdef01234567"
  }
}

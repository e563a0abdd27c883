# A team is named by its UUID.
import {
  to = buildkite_team.platform
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

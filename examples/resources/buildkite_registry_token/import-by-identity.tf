# A registry token is named by its registry's ID and its own. An imported token has no token value:
# the service shows it only when the token is created.
import {
  to = buildkite_registry_token.ci
  identity = {
    registry_id = "01234567-89ab-cdef-0123-456789abcdef"
    id          = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

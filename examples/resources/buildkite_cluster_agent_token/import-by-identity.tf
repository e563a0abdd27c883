# A token is named by its cluster's ID and its own. The secret is returned only when a token is
# created, so an imported token has no `token` value.
import {
  to = buildkite_cluster_agent_token.linux
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
    id         = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

# A cache registry is named by its cluster and its UUID.
import {
  to = buildkite_cluster_cache_registry.node_modules
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
    id         = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

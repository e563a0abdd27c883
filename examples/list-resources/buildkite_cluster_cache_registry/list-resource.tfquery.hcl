# The cache registries of one cluster (its Default registry included); without config, those of every cluster.
list "buildkite_cluster_cache_registry" "ci" {
  provider = buildkite

  config {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

# The secrets of one cluster (without values); without config, those of every cluster.
list "buildkite_cluster_secret" "platform" {
  provider = buildkite

  config {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

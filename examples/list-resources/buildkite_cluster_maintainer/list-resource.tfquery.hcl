# The maintainers of one cluster; without config, those of every cluster.
list "buildkite_cluster_maintainer" "platform" {
  provider = buildkite

  config {
    cluster_uuid = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

# The queues of one cluster; without config, the queues of every cluster.
list "buildkite_cluster_queue" "platform" {
  provider = buildkite

  config {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

# The agent tokens of one cluster; without config, those of every cluster.
list "buildkite_cluster_agent_token" "platform" {
  provider = buildkite

  config {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

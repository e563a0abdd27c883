# The agent images of one cluster; without config, those of every cluster.
list "buildkite_hosted_agent_image" "hosted" {
  provider = buildkite

  config {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

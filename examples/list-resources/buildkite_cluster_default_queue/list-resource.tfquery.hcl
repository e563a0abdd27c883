# The default queue setting of every cluster that has one.
list "buildkite_cluster_default_queue" "all" {
  provider = buildkite
}

resource "buildkite_cluster_default_queue" "platform" {
  cluster_id = buildkite_cluster.platform.id
  queue_id   = buildkite_cluster_queue.linux.id
}

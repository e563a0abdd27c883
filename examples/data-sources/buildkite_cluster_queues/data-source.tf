data "buildkite_cluster" "platform" {
  name = "Platform"
}

data "buildkite_cluster_queues" "platform" {
  cluster_id = data.buildkite_cluster.platform.id
}

output "paused_queues" {
  value = [for q in data.buildkite_cluster_queues.platform.queues : q.key if q.dispatch_paused]
}

resource "buildkite_cluster_queue" "linux" {
  cluster_id  = buildkite_cluster.platform.id
  key         = "linux"
  description = "Autoscaled Linux agents"
}

# A queue whose agents take no new jobs until it is resumed.
resource "buildkite_cluster_queue" "macos" {
  cluster_id           = buildkite_cluster.platform.id
  key                  = "macos"
  dispatch_paused      = true
  dispatch_paused_note = "Waiting for the OS upgrade"
}

# Stop handing jobs to the Linux agents while their image is upgraded, and start again afterwards:
#   terraform apply -invoke=action.buildkite_set_queue_dispatch.pause_linux
#   terraform apply -invoke=action.buildkite_set_queue_dispatch.resume_linux
# Asking twice is harmless: a queue already paused (or running) is left as it is.
action "buildkite_set_queue_dispatch" "pause_linux" {
  config {
    cluster_id = buildkite_cluster.platform.id
    queue_id   = buildkite_cluster_queue.linux.id
    paused     = true
    note       = "Agent image upgrade, back by 14:00 UTC"
  }
}

action "buildkite_set_queue_dispatch" "resume_linux" {
  config {
    cluster_id = buildkite_cluster.platform.id
    queue_id   = "linux" # the queue's key works too
    paused     = false
  }
}

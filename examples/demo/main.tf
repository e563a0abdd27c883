# The demo that `make demo` applies against the local emulator: a cluster with two queues, one of them
# paused, an agent token for the cluster's agents, and a default queue.
terraform {
  required_providers {
    buildkite = {
      source = "ci-rest/buildkite"
    }
  }
}

# Configured from BUILDKITE_API_TOKEN, BUILDKITE_ORGANIZATION_SLUG and BUILDKITE_REST_URL.
provider "buildkite" {}

resource "buildkite_cluster" "platform" {
  name        = "Platform"
  description = "Builds of the platform team"
  emoji       = ":rocket:"
  color       = "#A8D5FF"
}

resource "buildkite_cluster_queue" "linux" {
  cluster_id  = buildkite_cluster.platform.id
  key         = "linux"
  description = "Autoscaled Linux agents"
}

resource "buildkite_cluster_queue" "macos" {
  cluster_id           = buildkite_cluster.platform.id
  key                  = "macos"
  description          = "Mac minis in the office"
  dispatch_paused      = true
  dispatch_paused_note = "Waiting for the OS upgrade"
}

resource "buildkite_cluster_agent_token" "linux" {
  cluster_id           = buildkite_cluster.platform.id
  description          = "Agents of the Linux autoscaling group"
  allowed_ip_addresses = ["10.0.0.0/8"]
}

resource "buildkite_cluster_default_queue" "platform" {
  cluster_id = buildkite_cluster.platform.id
  queue_id   = buildkite_cluster_queue.linux.id
}

output "cluster_id" {
  value = buildkite_cluster.platform.id
}

output "queues" {
  value = {
    linux = buildkite_cluster_queue.linux.id
    macos = buildkite_cluster_queue.macos.id
  }
}

output "macos_paused" {
  value = buildkite_cluster_queue.macos.dispatch_paused
}

output "agent_token_id" {
  value = buildkite_cluster_agent_token.linux.id
}

output "agent_token" {
  value     = buildkite_cluster_agent_token.linux.token
  sensitive = true
}

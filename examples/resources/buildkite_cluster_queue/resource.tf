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

# A Buildkite-hosted Linux queue running a custom agent image. The size can change in place later; the
# machine type and architecture cannot (use a new queue for them).
resource "buildkite_cluster_queue" "hosted_linux" {
  cluster_id = buildkite_cluster.platform.id
  key        = "hosted-linux"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_4X16"
    linux = {
      agent_image_ref = "ghcr.io/acme/buildkite-agent:2026-11"
    }
  }
}

# A Buildkite-hosted macOS queue with its Xcode and macOS versions, which are set and read through
# Buildkite's GraphQL API (the API token needs the `graphql` scope); they change in place.
resource "buildkite_cluster_queue" "hosted_mac" {
  cluster_id = buildkite_cluster.platform.id
  key        = "hosted-mac"
  hosted_agents = {
    instance_shape = "MACOS_ARM64_M4_6X28"
    mac = {
      xcode_version = "16.2"
      macos_version = "SEQUOIA"
    }
  }
}

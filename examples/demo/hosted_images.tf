# A hosted cluster with a custom agent image, built before the apply goes on, and a hosted queue whose
# agents run on it.

resource "buildkite_cluster" "hosted" {
  name        = "Hosted"
  description = "Buildkite-hosted Linux agents"
}

# The cluster holds agent images once it has a hosted queue.
resource "buildkite_cluster_queue" "hosted_default" {
  cluster_id = buildkite_cluster.hosted.id
  key        = "default"

  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
  }
}

resource "buildkite_hosted_agent_image" "ruby" {
  cluster_id = buildkite_cluster.hosted.id
  name       = "ruby"
  dockerfile = <<-EOT
    RUN apt-get update && apt-get install -y ruby-full
  EOT

  timeouts {
    create = "45m"
  }

  depends_on = [buildkite_cluster_queue.hosted_default]
}

resource "buildkite_cluster_queue" "hosted_ruby" {
  cluster_id = buildkite_cluster.hosted.id
  key        = "ruby"

  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
    linux = {
      agent_image_ref = buildkite_hosted_agent_image.ruby.image_ref
    }
  }
}

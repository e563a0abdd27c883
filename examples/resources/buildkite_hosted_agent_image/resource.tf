resource "buildkite_cluster" "hosted" {
  name = "Hosted"
}

# A cluster holds agent images once it has a hosted queue.
resource "buildkite_cluster_queue" "default" {
  cluster_id = buildkite_cluster.hosted.id
  key        = "default"

  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
  }
}

# Built on Buildkite's hosted agent base image: the Dockerfile has no FROM. The apply waits for the build
# (here up to 45 minutes).
resource "buildkite_hosted_agent_image" "ruby" {
  cluster_id = buildkite_cluster.hosted.id
  name       = "ruby"
  dockerfile = <<-EOT
    RUN apt-get update && apt-get install -y ruby-full
  EOT

  timeouts {
    create = "45m"
  }

  depends_on = [buildkite_cluster_queue.default]
}

# A hosted queue whose agents run on the image.
resource "buildkite_cluster_queue" "ruby" {
  cluster_id = buildkite_cluster.hosted.id
  key        = "ruby"

  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
    linux = {
      agent_image_ref = buildkite_hosted_agent_image.ruby.image_ref
    }
  }
}

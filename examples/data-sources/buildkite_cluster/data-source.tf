# A cluster by name (as in the official provider) ...
data "buildkite_cluster" "platform" {
  name = "Platform"
}

# ... or by ID.
data "buildkite_cluster" "by_id" {
  id = "01234567-89ab-cdef-0123-456789abcdef"
}

output "platform_default_queue" {
  value = data.buildkite_cluster.platform.default_queue_id
}

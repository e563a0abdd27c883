# A configuration moving from the official provider keeps the GraphQL IDs it was given, and this
# provider takes UUIDs.
variable "platform_cluster_id" {
  description = "The GraphQL ID of the platform cluster, as the official provider's id shows it."
  type        = string
}

resource "buildkite_cluster_queue" "linux" {
  cluster_id = provider::buildkite::uuid(var.platform_cluster_id)
  key        = "linux"
}

# A small module with the tests a user's CI runs against the emulator: `terraform test` (tests/*.tftest.hcl)
# with the provider configured from the environment `fakeserver env` prints (BUILDKITE_REST_URL,
# BUILDKITE_GRAPHQL_URL, BUILDKITE_ORGANIZATION_SLUG, BUILDKITE_API_TOKEN): nothing here names a URL or a
# token. `make test-tftest` runs it; EMULATOR.md shows the GitHub Actions job that does the same.
terraform {
  required_providers {
    buildkite = {
      source = "ci-rest/buildkite"
    }
  }
}

provider "buildkite" {}

variable "team_name" {
  description = "The team the cluster and its pipeline belong to."
  type        = string
}

variable "queues" {
  description = "The keys of the cluster's queues; the first is its default queue."
  type        = list(string)
  default     = ["linux"]

  validation {
    condition     = length(var.queues) > 0
    error_message = "The cluster needs at least one queue."
  }
}

resource "buildkite_cluster" "this" {
  name        = "${var.team_name} cluster"
  description = "Agents of the ${var.team_name} team"
}

resource "buildkite_cluster_queue" "this" {
  for_each   = toset(var.queues)
  cluster_id = buildkite_cluster.this.id
  key        = each.key
}

resource "buildkite_cluster_default_queue" "this" {
  cluster_id = buildkite_cluster.this.id
  queue_id   = buildkite_cluster_queue.this[var.queues[0]].id
}

resource "buildkite_pipeline" "this" {
  name       = "${var.team_name} app"
  repository = "https://github.com/acme/${lower(var.team_name)}-app.git"
  cluster_id = buildkite_cluster.this.id

  steps = <<-YAML
    steps:
      - label: ":hammer: build"
        command: make
        agents:
          queue: ${var.queues[0]}
  YAML
}

output "cluster_id" {
  value = buildkite_cluster.this.id
}

output "queue_ids" {
  value = { for key, q in buildkite_cluster_queue.this : key => q.id }
}

output "pipeline_slug" {
  value = buildkite_pipeline.this.slug
}

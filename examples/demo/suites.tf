# The demo's test suite, owned by the demo team (buildkite_team.platform in examples/demo/teams.tf), and a package registry the
# team may publish to, with a read token; then what the read-only views see of the organization: its clusters and its newest builds.
resource "buildkite_test_suite" "web" {
  name           = "Web Tests"
  default_branch = "main"
  team_owner_id  = buildkite_team.platform.id
  emoji          = ":test_tube:"
}

resource "buildkite_registry" "gems" {
  name        = "Demo Gems"
  ecosystem   = "ruby"
  description = "Gems built by the demo pipelines"
}

# The platform team may publish gems to the registry (through GraphQL, the only API that grants it).
resource "buildkite_team_registry" "platform_gems" {
  team_id      = buildkite_team.platform.id
  registry_id  = buildkite_registry.gems.id
  access_level = "read_and_write"
}

resource "buildkite_registry_token" "ci" {
  registry_id = buildkite_registry.gems.id
  description = "Read access for CI"
}

# Read after the demo's clusters (and the platform cluster's default queue) exist, so the list shows them all
# and the next plan reads the same.
data "buildkite_clusters" "all" {
  depends_on = [buildkite_cluster_default_queue.platform, buildkite_cluster.hosted]
}

data "buildkite_builds" "recent" {
  limit = 10
}

output "test_suite_slug" {
  value = buildkite_test_suite.web.slug
}

output "test_suite_api_token" {
  value     = buildkite_test_suite.web.api_token
  sensitive = true
}

output "registry_slug" {
  value = buildkite_registry.gems.slug
}

output "registry_token" {
  value     = buildkite_registry_token.ci.token
  sensitive = true
}

output "clusters" {
  value = { for c in data.buildkite_clusters.all.clusters : c.name => c.default_queue_id }
}

output "recent_builds" {
  value = [for b in data.buildkite_builds.recent.builds : "${b.pipeline_slug}#${b.number} ${b.state}"]
}

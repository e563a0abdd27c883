resource "buildkite_portal" "build_stats" {
  slug                 = "build-stats"
  name                 = "Build stats"
  description          = "The latest builds of every pipeline, for the dashboard"
  query                = "{ organization(slug: \"acme\") { pipelines(first: 50) { edges { node { name builds(first: 1) { edges { node { state } } } } } } } }"
  allowed_ip_addresses = "10.0.0.0/8 192.168.1.0/24"
  user_invokable       = false
}

# The token is returned only when the portal is created; after an import it is null.
output "build_stats_portal_token" {
  value     = buildkite_portal.build_stats.token
  sensitive = true
}

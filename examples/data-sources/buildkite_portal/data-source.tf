data "buildkite_portal" "build_stats" {
  slug = "build-stats"
}

output "build_stats_query" {
  value = data.buildkite_portal.build_stats.query
}

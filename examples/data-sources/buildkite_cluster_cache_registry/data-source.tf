# Every cluster has a registry named Default.
data "buildkite_cluster_cache_registry" "default" {
  cluster_id = buildkite_cluster.ci.id
  name       = "Default"
}

output "default_cache_policy" {
  value = jsondecode(data.buildkite_cluster_cache_registry.default.policy)
}

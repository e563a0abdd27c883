data "buildkite_clusters" "all" {}

output "cluster_names" {
  value = [for c in data.buildkite_clusters.all.clusters : c.name]
}

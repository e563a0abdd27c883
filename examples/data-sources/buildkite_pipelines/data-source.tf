# The pipelines of a cluster that carry a tag.
data "buildkite_pipelines" "platform_go" {
  cluster_id = buildkite_cluster.platform.id
  tag        = "go"
}

output "platform_go_slugs" {
  value = [for p in data.buildkite_pipelines.platform_go.pipelines : p.slug]
}

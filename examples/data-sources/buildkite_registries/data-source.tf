data "buildkite_registries" "all" {}

output "registry_slugs" {
  value = [for r in data.buildkite_registries.all.registries : r.slug]
}

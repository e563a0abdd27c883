data "buildkite_registry" "gems" {
  slug = "ruby-gems"
}

output "gems_ecosystem" {
  value = data.buildkite_registry.gems.ecosystem
}

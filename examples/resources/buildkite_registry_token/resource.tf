resource "buildkite_registry" "gems" {
  name      = "Ruby Gems"
  ecosystem = "ruby"
}

# registry_id is the registry's ID, not its slug, so renaming the registry keeps the token.
resource "buildkite_registry_token" "ci" {
  registry_id = buildkite_registry.gems.id
  description = "Read access for CI"
}

output "gems_token" {
  value     = buildkite_registry_token.ci.token
  sensitive = true
}

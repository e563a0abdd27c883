# The organization the provider is configured for.
data "buildkite_organization" "current" {}

output "organization_uuid" {
  value = data.buildkite_organization.current.uuid
}

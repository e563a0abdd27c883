# The organization is imported by its slug, UUID or GraphQL ID (the official provider's ID).
terraform import buildkite_organization.settings acme

# A registry is imported by its slug.
terraform import buildkite_registry.gems ruby-gems

# The banner is imported by the organization's slug, or the banner's UUID or GraphQL ID.
terraform import buildkite_organization_banner.notice acme

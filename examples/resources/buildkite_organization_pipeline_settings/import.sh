# The settings are imported by the organization's slug.
terraform import buildkite_organization_pipeline_settings.settings acme

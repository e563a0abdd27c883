# The settings are named by the organization's slug.
import {
  to = buildkite_organization_pipeline_settings.settings
  identity = {
    id = "acme"
  }
}

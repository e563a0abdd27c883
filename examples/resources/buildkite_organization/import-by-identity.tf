# The organization's settings are named by its slug.
import {
  to = buildkite_organization.settings
  identity = {
    slug = "acme"
  }
}

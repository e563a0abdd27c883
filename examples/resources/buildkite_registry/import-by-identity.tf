# A registry is named by its slug.
import {
  to = buildkite_registry.gems
  identity = {
    slug = "ruby-gems"
  }
}

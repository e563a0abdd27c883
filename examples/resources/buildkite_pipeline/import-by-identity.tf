# A pipeline is named by its slug.
import {
  to = buildkite_pipeline.app
  identity = {
    slug = "app"
  }
}

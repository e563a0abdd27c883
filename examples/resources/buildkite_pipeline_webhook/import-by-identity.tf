# The webhook is named by its pipeline's UUID.
import {
  to = buildkite_pipeline_webhook.app
  identity = {
    pipeline_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

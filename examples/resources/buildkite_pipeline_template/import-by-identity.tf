# A pipeline template is named by its UUID.
import {
  to = buildkite_pipeline_template.standard
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

# An image is named by its cluster's ID and its own.
import {
  to = buildkite_hosted_agent_image.ruby
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
    id         = "snb5nqcik8ge2"
  }
}

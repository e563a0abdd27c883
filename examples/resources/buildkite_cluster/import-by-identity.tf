# A cluster is named by its ID.
import {
  to = buildkite_cluster.platform
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

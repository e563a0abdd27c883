# The default queue setting is named by the cluster's ID.
import {
  to = buildkite_cluster_default_queue.platform
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

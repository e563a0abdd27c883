# A queue is named by its cluster's ID and its key.
import {
  to = buildkite_cluster_queue.linux
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
    key        = "linux"
  }
}

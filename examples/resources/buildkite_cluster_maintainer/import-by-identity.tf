# A maintainer is named by its cluster's UUID and the assignment's ID.
import {
  to = buildkite_cluster_maintainer.sam
  identity = {
    cluster_uuid = "01234567-89ab-cdef-0123-456789abcdef"
    id           = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

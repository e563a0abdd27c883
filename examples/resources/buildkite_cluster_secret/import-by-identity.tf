# A secret is named by its cluster's ID and its own.
import {
  to = buildkite_cluster_secret.deploy_key
  identity = {
    cluster_id = "01234567-89ab-cdef-0123-456789abcdef"
    id         = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

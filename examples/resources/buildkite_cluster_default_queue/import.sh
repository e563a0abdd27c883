# The default queue setting is imported by the cluster's ID or GraphQL ID.
terraform import buildkite_cluster_default_queue.platform 01234567-89ab-cdef-0123-456789abcdef

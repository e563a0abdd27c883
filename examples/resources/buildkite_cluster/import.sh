# A cluster is imported by its ID.
terraform import buildkite_cluster.platform 01234567-89ab-cdef-0123-456789abcdef

# A maintainer is imported as <cluster id>/<maintainer id>, the assignment's own ID (permission_uuid in
# the cluster data sources).
terraform import buildkite_cluster_maintainer.sam 01234567-89ab-cdef-0123-456789abcdef/fedcba98-7654-3210-fedc-ba9876543210

# A cache registry is imported as <cluster id>/<registry uuid>, or by its GraphQL ID (the official provider's ID).
terraform import buildkite_cluster_cache_registry.node_modules 01234567-89ab-cdef-0123-456789abcdef/fedcba98-7654-3210-fedc-ba9876543210

# A token is imported as <cluster id>/<token id>. The secret is returned only when a token is created,
# so an imported token has no `token` value.
terraform import buildkite_cluster_agent_token.linux 01234567-89ab-cdef-0123-456789abcdef/fedcba98-7654-3210-fedc-ba9876543210

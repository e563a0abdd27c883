# A token is imported by its UUID or its GraphQL ID. The secret is returned only when a token is created,
# so an imported token has no `token` value.
terraform import buildkite_agent_token.legacy fedcba98-7654-3210-fedc-ba9876543210

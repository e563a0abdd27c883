# A token is named by its ID (a UUID). The secret is returned only when a token is created, so an imported
# token has no `token` value.
import {
  to = buildkite_agent_token.legacy
  identity = {
    id = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

# An unclustered agent token: only Buildkite's GraphQL API manages these, so the API token needs the
# `graphql` scope (and, where rest_url is set, the provider needs graphql_url too). For agents in a
# cluster, use buildkite_cluster_agent_token instead.
resource "buildkite_agent_token" "legacy" {
  description = "Agents of the legacy fleet"
}

# Hand the secret to the agents, for example through a secrets manager. It is known only to the run that
# created the token.
output "agent_token" {
  value     = buildkite_agent_token.legacy.token
  sensitive = true
}

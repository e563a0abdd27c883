# Not supported: unclustered agent tokens have no REST endpoint, and every plan holding one fails with
# what to do instead. Give the agents a cluster and a cluster agent token:
resource "buildkite_cluster" "agents" {
  name = "Agents"
}

resource "buildkite_cluster_agent_token" "agents" {
  cluster_id  = buildkite_cluster.agents.id
  description = "Agents formerly on an unclustered token"
}

# A state that still holds a buildkite_agent_token: remove it from the configuration, then
#   terraform state rm buildkite_agent_token.old
# (the token itself is left as it is; revoke it in the web interface).

resource "buildkite_cluster_agent_token" "linux" {
  cluster_id           = buildkite_cluster.platform.id
  description          = "Agents of the Linux autoscaling group"
  allowed_ip_addresses = ["10.0.0.0/8"]
}

# Hand the secret to the agents, for example through a secrets manager.
output "agent_token" {
  value     = buildkite_cluster_agent_token.linux.token
  sensitive = true
}

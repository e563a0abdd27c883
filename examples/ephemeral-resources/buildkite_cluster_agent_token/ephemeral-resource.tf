# A token for the agents of the Platform cluster, made by the apply and stored as a cluster secret that the
# agents' bootstrap reads; it is in neither plan nor state. The plan's token is revoked when the plan ends
# (terraform.applying is false then); the apply's is kept until it expires, two hours after the apply.
ephemeral "buildkite_cluster_agent_token" "bootstrap" {
  cluster_id        = buildkite_cluster.platform.id
  description       = "Agent bootstrap (Terraform)"
  expires_in        = "2h"
  keep_until_expiry = terraform.applying
}

# Any write-only attribute takes the token the same way: a secret manager's (such as
# aws_secretsmanager_secret_version.secret_string_wo) or a provider block's. Change value_wo_version to
# store the token of the next apply.
resource "buildkite_cluster_secret" "bootstrap_token" {
  cluster_id       = buildkite_cluster.platform.id
  key              = "BOOTSTRAP_AGENT_TOKEN"
  value_wo         = ephemeral.buildkite_cluster_agent_token.bootstrap.token
  value_wo_version = "1"
}

# The unclustered agent tokens described "Legacy fleet"; without config, every token not revoked.
list "buildkite_agent_token" "legacy" {
  provider = buildkite

  config {
    description = "Legacy fleet"
  }
}

# A secret kept in state (sensitive), readable by the deploy pipeline's builds of main.
resource "buildkite_cluster_secret" "deploy_key" {
  cluster_id  = buildkite_cluster.platform.id
  key         = "DEPLOY_KEY"
  value       = var.deploy_key
  description = "Deploys to production"

  policy = <<-YAML
    - pipeline_slug: deploy
      build_branch: main
  YAML
}

# A write-only secret: its value is in neither plan nor state. Change value_wo_version (here the version
# of the secret in the secret manager) to send a new value.
resource "buildkite_cluster_secret" "npm_token" {
  cluster_id       = buildkite_cluster.platform.id
  key              = "NPM_TOKEN"
  value_wo         = var.npm_token
  value_wo_version = "3"
}

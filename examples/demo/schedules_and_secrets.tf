# A nightly schedule of the app pipeline, secrets of the platform cluster for its agents (one kept in state,
# one write-only), the demo team as the cluster's maintainer, and the addresses webhooks come from.

resource "buildkite_pipeline_schedule" "nightly" {
  pipeline_id = buildkite_pipeline.app.id
  label       = "Nightly build"
  cronline    = "0 3 * * 1-5 Europe/Berlin"
  branch      = "main"
  message     = "Nightly build"

  env = {
    DEPLOY = "false"
  }
}

resource "buildkite_cluster_secret" "deploy_key" {
  cluster_id  = buildkite_cluster.platform.id
  key         = "DEPLOY_KEY"
  value       = "demo-deploy-key"
  description = "Deploys the app"

  policy = <<-YAML
    - pipeline_slug: ${buildkite_pipeline.app.slug}
      build_branch: main
  YAML
}

# Write-only: the value is in neither plan nor state; a new value_wo_version sends a new value.
resource "buildkite_cluster_secret" "npm_token" {
  cluster_id       = buildkite_cluster.platform.id
  key              = "NPM_TOKEN"
  value_wo         = "demo-npm-token"
  value_wo_version = "1"
}

resource "buildkite_cluster_maintainer" "platform_team" {
  cluster_uuid = buildkite_cluster.platform.uuid
  team_uuid    = buildkite_team.platform.id
}

data "buildkite_meta" "this" {}

output "nightly_schedule" {
  value = buildkite_pipeline_schedule.nightly.id
}

output "webhook_ips" {
  value = data.buildkite_meta.this.webhook_ips
}

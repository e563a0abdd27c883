# Allow the deploy pipeline to trigger builds of the app pipeline.
resource "buildkite_organization_rule" "deploy_triggers_app" {
  type = "pipeline.trigger_build.pipeline"
  value = jsonencode({
    source_pipeline = buildkite_pipeline.deploy.uuid
    target_pipeline = buildkite_pipeline.app.uuid
  })
}

# Pipelines may also be named by slug; the rule then plans empty against the UUIDs the service answers.
resource "buildkite_organization_rule" "deploy_reads_app_artifacts" {
  type = "pipeline.artifacts_read.pipeline"
  value = jsonencode({
    source_pipeline = "deploy"
    target_pipeline = "app"
  })
}

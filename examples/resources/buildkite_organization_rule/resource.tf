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

# A rule with a description and conditions (set and read through Buildkite's GraphQL API, which the API
# token's `graphql` scope opens). Changing the pipelines, the conditions or the description updates the
# rule in place; only a change of type replaces it.
resource "buildkite_organization_rule" "deploy_triggers_app_on_main" {
  type        = "pipeline.trigger_build.pipeline"
  description = "Deploys of main trigger the app"
  value = jsonencode({
    source_pipeline = buildkite_pipeline.deploy.uuid
    target_pipeline = buildkite_pipeline.app.uuid
    conditions = [
      "source.build.branch == 'main'",
      "source.build.creator.teams includes 'deploy'",
    ]
  })
}

# The rules of one type; pipeline_id keeps those whose source or target is a pipeline.
list "buildkite_organization_rule" "triggers" {
  provider = buildkite

  config {
    type = "pipeline.trigger_build.pipeline"
  }
}

# One pipeline, by slug or by UUID.
data "buildkite_pipeline" "app" {
  slug = "app"
}

output "app_steps" {
  value = data.buildkite_pipeline.app.steps
}

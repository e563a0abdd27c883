# A nightly build on weekdays, at 03:00 in Berlin.
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

# A weekly build of a pipeline named by its slug, paused for now.
resource "buildkite_pipeline_schedule" "weekly" {
  pipeline_id = "deploy"
  label       = "Weekly dependency update"
  cronline    = "@weekly"
  branch      = "main"
  enabled     = false
}

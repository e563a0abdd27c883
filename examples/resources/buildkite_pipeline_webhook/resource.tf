resource "buildkite_pipeline" "app" {
  name       = "app"
  repository = "https://github.com/acme/app.git"
}

# Creates the webhook on the GitHub repository. Destroying the resource leaves the webhook in place:
# REST cannot delete it, so delete it in the repository's settings.
resource "buildkite_pipeline_webhook" "app" {
  pipeline_id = buildkite_pipeline.app.id
  repository  = buildkite_pipeline.app.repository
}

# The slug the service will give a pipeline, known before the pipeline exists: here a pipeline that
# triggers another one, which another configuration manages, by its name. "Deploy (Production)" has the
# slug "deploy-production".
locals {
  deploy_pipeline = "Deploy (Production)"
}

resource "buildkite_pipeline" "web" {
  name       = "Web"
  repository = "https://github.com/acme/web.git"
  steps      = <<-YAML
    steps:
      - command: make test
      - wait
      - trigger: ${provider::buildkite::pipeline_slug(local.deploy_pipeline)}
  YAML
}

# A template pipelines run by naming it in pipeline_template_id (enterprise plan).
resource "buildkite_pipeline_template" "standard" {
  name        = "Standard build"
  description = "Uploads the pipeline from the repository on the Linux queue"
  available   = true

  configuration = <<-YAML
    steps:
      - label: ":pipeline:"
        command: buildkite-agent pipeline upload
        agents:
          queue: linux
  YAML

  # The service refuses to delete a template that pipelines still use. With this setting, a change that
  # removes the template and its pipeline_template_id together updates the pipelines first, then deletes
  # the template; without it Terraform deletes the template first, and the apply fails.
  lifecycle {
    create_before_destroy = true
  }
}

resource "buildkite_pipeline" "deploy" {
  name                 = "Deploy"
  repository           = "https://github.com/acme/deploy.git"
  pipeline_template_id = buildkite_pipeline_template.standard.id
}

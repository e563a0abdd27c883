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
}

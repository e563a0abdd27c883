# Pipelines in the demo: one in the platform cluster with its steps as YAML, a template and a pipeline that
# runs it, and a rule that lets the first trigger builds of the second.

resource "buildkite_pipeline" "app" {
  name        = "App"
  repository  = "https://github.com/acme/app.git"
  cluster_id  = buildkite_cluster.platform.id
  description = "Builds and tests the app on the Linux queue"
  tags        = ["demo"]
  # The demo team gets manage access when the pipeline is created.
  default_team_id = buildkite_team.platform.id

  steps = <<-YAML
    steps:
      - label: ":hammer: build"
        command: make
        agents:
          queue: linux
  YAML

  provider_settings = {
    build_pull_requests = true
  }
}

resource "buildkite_pipeline_template" "standard" {
  name        = "Standard upload"
  description = "Uploads the pipeline from the repository"
  available   = true

  configuration = <<-YAML
    steps:
      - label: ":pipeline:"
        command: buildkite-agent pipeline upload
        agents:
          queue: linux
  YAML

  # Removing the template and its use in one change then updates the pipeline before deleting the
  # template, which the service refuses while a pipeline uses it.
  lifecycle {
    create_before_destroy = true
  }
}

resource "buildkite_pipeline" "deploy" {
  name                 = "Deploy"
  repository           = "https://github.com/acme/deploy.git"
  cluster_id           = buildkite_cluster.platform.id
  pipeline_template_id = buildkite_pipeline_template.standard.id
}

resource "buildkite_organization_rule" "app_triggers_deploy" {
  type = "pipeline.trigger_build.pipeline"
  value = jsonencode({
    source_pipeline = buildkite_pipeline.app.uuid
    target_pipeline = buildkite_pipeline.deploy.uuid
  })
}

output "pipelines" {
  value = {
    app    = buildkite_pipeline.app.slug
    deploy = buildkite_pipeline.deploy.slug
  }
}

# The demo team may build the deploy pipeline too.
resource "buildkite_pipeline_team" "platform_deploys" {
  team_id      = buildkite_team.platform.id
  pipeline_id  = buildkite_pipeline.deploy.id
  access_level = "BUILD_AND_READ"
}

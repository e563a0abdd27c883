# A pipeline in a cluster, with its steps as YAML.
resource "buildkite_pipeline" "app" {
  name           = "App"
  repository     = "https://github.com/acme/app.git"
  cluster_id     = buildkite_cluster.platform.id
  description    = "Builds and tests the app"
  default_branch = "main"
  tags           = ["go", "web"]

  steps = <<-YAML
    steps:
      - label: ":go: test"
        command: go test ./...
        agents:
          queue: linux
  YAML

  cancel_intermediate_builds               = true
  cancel_intermediate_builds_branch_filter = "!main"

  # Only the keys set here are managed; the others keep the service's values.
  provider_settings = {
    trigger_mode          = "code"
    build_pull_requests   = true
    publish_commit_status = true
  }

  # The team that gets manage_build_and_read access when the pipeline is created.
  default_team_id = buildkite_team.platform.id
}

# A pipeline that runs a template's steps.
resource "buildkite_pipeline" "service" {
  name                 = "Service"
  repository           = "https://github.com/acme/service.git"
  pipeline_template_id = buildkite_pipeline_template.standard.id
}

# Without steps and without a template: the standard pipeline upload step.
resource "buildkite_pipeline" "legacy" {
  name              = "Legacy"
  repository        = "git@github.com:acme/legacy.git"
  archived          = true
  archive_on_delete = true
}

# A pipeline shown with an emoji and a color, whose agents clone from a mirror (the organization needs the
# clone-mirror feature).
resource "buildkite_pipeline" "website" {
  name             = "Website"
  repository       = "https://github.com/acme/website.git"
  emoji            = ":rocket:"
  color            = "#FF5733"
  clone_mirror_url = "https://git-mirror.acme.example/acme/website.git"
}

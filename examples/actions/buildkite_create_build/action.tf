# A first build when the pipeline is created, and a new one whenever Terraform changes it.
resource "buildkite_pipeline" "app" {
  name       = "App"
  repository = "https://github.com/acme/app.git"
  steps      = <<-YAML
    steps:
      - command: make test
  YAML

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.buildkite_create_build.app]
    }
  }
}

# `caller` is the resource whose action_trigger runs the action (Terraform 1.16 and later). Terraform 1.14
# and 1.15 have no `caller`: there write buildkite_pipeline.app.slug (1.16 warns of that, and its -invoke
# fails).
action "buildkite_create_build" "app" {
  config {
    pipeline = caller.slug
    branch   = "main"
    message  = "Pipeline changed by Terraform"
  }
}

# A release by hand, which succeeds only once the build has passed:
#   terraform apply -invoke=action.buildkite_create_build.release
action "buildkite_create_build" "release" {
  config {
    pipeline   = "deploy"
    branch     = "main"
    commit     = "HEAD"
    message    = "Release from Terraform"
    env        = { DEPLOY_ENV = "production" }
    meta_data  = { release = "2026.11" }
    wait_until = "finished"
    timeout    = "45m"
  }
}

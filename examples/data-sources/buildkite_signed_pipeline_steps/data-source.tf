# Signs the steps with a key whose public half the agents verify with (verification-jwks-file).
data "buildkite_signed_pipeline_steps" "release" {
  repository  = buildkite_pipeline.release.repository
  jwks_file   = "${path.module}/signing-key.json"
  jwks_key_id = "release-signing"

  unsigned_steps = <<-YAML
    env:
      DEPLOY_ENV: production
    steps:
      - label: ":rocket: Release"
        command: make release
        plugins:
          - docker#v5.12.0:
              image: golang:1.26
  YAML
}

resource "buildkite_pipeline" "release" {
  name       = "release"
  repository = "https://github.com/acme/release.git"
  steps      = data.buildkite_signed_pipeline_steps.release.steps
}

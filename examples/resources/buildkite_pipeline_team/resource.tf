resource "buildkite_pipeline_team" "platform_deploy" {
  team_id      = buildkite_team.platform.id
  pipeline_id  = buildkite_pipeline.deploy.id
  access_level = "build_and_read"
}

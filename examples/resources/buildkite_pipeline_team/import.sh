# A team's access to a pipeline is imported as <team>/<pipeline>: the team by UUID or slug, the pipeline by
# UUID or slug.
terraform import buildkite_pipeline_team.platform_deploy platform/deploy

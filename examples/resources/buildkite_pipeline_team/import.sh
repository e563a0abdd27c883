# A team's access to a pipeline is imported as <team>/<pipeline>: the team by UUID or slug, the pipeline by
# UUID or slug.
terraform import buildkite_pipeline_team.platform_deploy platform/deploy

# The official provider's import ID, the GraphQL ID of the access itself, works too: Buildkite's GraphQL API
# resolves it into the team and the pipeline (the API token needs the `graphql` scope).
terraform import buildkite_pipeline_team.platform_deploy VGVhbVBpcGVsaW5lLS0tMDEyMzQ1NjctODlhYi1jZGVmLTAxMjMtNDU2Nzg5YWJjZGVm

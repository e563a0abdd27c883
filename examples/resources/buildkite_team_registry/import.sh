# A team's access to a registry is imported as <team>/<registry>: the team by UUID or slug, the registry by
# UUID or slug.
terraform import buildkite_team_registry.gems_everyone everyone/gems

# The official provider's import ID, the GraphQL ID of the access itself, works too: Buildkite's GraphQL API
# resolves it into the team and the registry.
terraform import buildkite_team_registry.gems_everyone VGVhbVJlZ2lzdHJ5LS0tMDEyMzQ1NjctODlhYi1jZGVmLTAxMjMtNDU2Nzg5YWJjZGVm

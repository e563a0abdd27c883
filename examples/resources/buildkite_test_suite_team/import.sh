# A team's access to a test suite is imported as <team>/<suite>: the team by UUID or slug, the suite by UUID
# or slug.
terraform import buildkite_test_suite_team.platform_unit platform/unit-tests

# The official provider's import ID, the GraphQL ID of the access itself, works too: Buildkite's GraphQL API
# resolves it into the team and the suite (the API token needs the `graphql` scope).
terraform import buildkite_test_suite_team.platform_unit VGVhbVN1aXRlLS0tMDEyMzQ1NjctODlhYi1jZGVmLTAxMjMtNDU2Nzg5YWJjZGVm

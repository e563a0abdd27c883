# A membership is imported as <team>/<user id>, the team by UUID, GraphQL ID or slug, the user by UUID or
# GraphQL ID.
terraform import buildkite_team_member.sam platform/89abcdef-0123-4567-89ab-cdef01234567

# The official provider's import ID, the GraphQL ID of the membership itself, works too: Buildkite's GraphQL
# API resolves it into the team and the user (the API token needs the `graphql` scope).
terraform import buildkite_team_member.sam VGVhbU1lbWJlci0tLTAxMjM0NTY3LTg5YWItY2RlZi0wMTIzLTQ1Njc4OWFiY2RlZg==

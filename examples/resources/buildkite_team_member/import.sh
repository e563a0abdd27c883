# A membership is imported as <team>/<user id>, the team by UUID, GraphQL ID or slug, the user by UUID or
# GraphQL ID. The official provider's import ID, the GraphQL ID of the membership itself, cannot be used:
# the REST API never shows the UUID it encodes.
terraform import buildkite_team_member.sam platform/89abcdef-0123-4567-89ab-cdef01234567

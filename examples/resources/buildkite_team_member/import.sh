# A membership is imported as <team>/<user uuid>, the team by UUID or by slug.
terraform import buildkite_team_member.sam platform/89abcdef-0123-4567-89ab-cdef01234567

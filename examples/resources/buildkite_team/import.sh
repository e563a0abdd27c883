# A team is imported by its UUID, its GraphQL ID or its slug.
terraform import buildkite_team.platform 01234567-89ab-cdef-0123-456789abcdef
terraform import buildkite_team.platform platform

# A member found by e-mail address (compared case-insensitively)...
data "buildkite_organization_member" "sam" {
  email = "sam@example.com"
}

# ...or by user UUID.
data "buildkite_organization_member" "alex" {
  id = "89abcdef-0123-4567-89ab-cdef01234567"
}

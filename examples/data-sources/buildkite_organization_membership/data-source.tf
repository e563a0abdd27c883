# A member, or a pending invitation, found by e-mail address (compared case-insensitively)...
data "buildkite_organization_membership" "sam" {
  email = "sam@example.com"
}

# ...or a member by user UUID.
data "buildkite_organization_membership" "alex" {
  uuid = "89abcdef-0123-4567-89ab-cdef01234567"
}

output "sam_is_admin" {
  value = data.buildkite_organization_membership.sam.role == "ADMIN"
}

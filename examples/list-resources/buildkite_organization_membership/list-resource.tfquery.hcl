# The administrators; state = "pending" finds the invitations not yet accepted, and without config every
# member and pending invitation is found.
list "buildkite_organization_membership" "admins" {
  provider = buildkite

  config {
    role = "admin"
  }
}

# An existing member, adopted: its role and SSO mode are managed; destroying it only makes it a member.
resource "buildkite_organization_membership" "lead" {
  email                = "lead@example.com"
  role                 = "ADMIN"
  sso_mode             = "REQUIRED"
  downgrade_on_destroy = true
}

# Someone not yet a member: invited, and `pending` until the invitation is accepted.
resource "buildkite_organization_membership" "new_hire" {
  email           = "new.hire@example.com"
  role            = "MEMBER"
  sso_mode        = "REQUIRED"
  send_invitation = true
}

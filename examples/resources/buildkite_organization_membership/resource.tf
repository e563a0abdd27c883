# An existing member, adopted: its role and SSO mode are managed. The plan warns that it adopts them and
# shows the role they have now as role_before_adoption; destroying it gives that role back and leaves them
# a member (remove_adopted_on_destroy = true would remove them).
resource "buildkite_organization_membership" "lead" {
  email    = "lead@example.com"
  role     = "ADMIN"
  sso_mode = "REQUIRED"
}

# Someone not yet a member: invited, and `pending` until the invitation is accepted. Destroying it revokes
# the invitation, or once accepted removes the member; with downgrade_on_destroy it only makes them a member.
resource "buildkite_organization_membership" "new_hire" {
  email                = "new.hire@example.com"
  role                 = "MEMBER"
  sso_mode             = "REQUIRED"
  send_invitation      = true
  downgrade_on_destroy = true
}

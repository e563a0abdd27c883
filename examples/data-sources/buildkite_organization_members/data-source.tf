data "buildkite_organization_members" "all" {}

output "member_emails" {
  value = data.buildkite_organization_members.all.members[*].email
}

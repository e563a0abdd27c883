data "buildkite_organization_members" "all" {}

output "member_emails" {
  value = data.buildkite_organization_members.all.members[*].email
}

# Only the members of one team, by its slug.
data "buildkite_organization_members" "platform" {
  team = "platform"
}

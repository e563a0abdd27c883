resource "buildkite_team" "platform" {
  name                         = "Platform"
  description                  = "Builds and runs the platform"
  privacy                      = "visible"
  default_team                 = false
  default_member_role          = "member"
  members_can_create_pipelines = true
}

# The official provider's upper-case spelling works too and never shows as a change.
resource "buildkite_team" "security" {
  name                = "Security"
  privacy             = "SECRET"
  default_team        = false
  default_member_role = "MAINTAINER"
}

resource "buildkite_team" "platform" {
  name                = "Platform"
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}

# A suite owned by the platform team. The suite's API token (api_token) is kept in state from the
# create response: pass it to the test collector as BUILDKITE_ANALYTICS_TOKEN.
resource "buildkite_test_suite" "rspec" {
  name             = "RSpec"
  default_branch   = "main"
  team_owner_id    = buildkite_team.platform.id
  emoji            = ":rspec:"
  color            = "#E0F1FF"
  application_name = "web"
}

output "rspec_analytics_token" {
  value     = buildkite_test_suite.rspec.api_token
  sensitive = true
}

# READ_ONLY is the REST API's ["read"], MANAGE_AND_READ its ["read", "edit"].
resource "buildkite_test_suite_team" "platform_unit" {
  team_id       = buildkite_team.platform.id
  test_suite_id = buildkite_test_suite.unit.id
  access_level  = "MANAGE_AND_READ"
}

# A team's access to a test suite is imported as <team>/<suite>: the team by UUID or slug, the suite by UUID
# or slug.
terraform import buildkite_test_suite_team.platform_unit platform/unit-tests

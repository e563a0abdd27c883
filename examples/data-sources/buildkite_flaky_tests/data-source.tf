# The tests of the rspec suite that were flaky on main and whose name or scope mentions "user".
data "buildkite_flaky_tests" "users" {
  test_suite_slug = "rspec"
  branch          = "main"
  search          = "user"
}

output "flaky_user_tests" {
  value = { for t in data.buildkite_flaky_tests.users.flaky_tests : t.name => t.instances }
}

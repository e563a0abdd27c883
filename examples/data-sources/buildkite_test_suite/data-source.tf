# A test suite by slug (as in the official provider) or by ID.
data "buildkite_test_suite" "rspec" {
  slug = "rspec"
}

output "rspec_default_branch" {
  value = data.buildkite_test_suite.rspec.default_branch
}

data "buildkite_test_suites" "all" {}

output "suite_slugs" {
  value = [for s in data.buildkite_test_suites.all.test_suites : s.slug]
}

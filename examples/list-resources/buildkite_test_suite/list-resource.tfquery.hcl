# Every test suite; config { name = "…" } finds one by name.
list "buildkite_test_suite" "all" {
  provider = buildkite
}

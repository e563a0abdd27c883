# Every cluster of the organization; config { name = "…" } finds one by name.
list "buildkite_cluster" "all" {
  provider = buildkite
}

# Every package registry; config { name = "…" } finds one by name.
list "buildkite_registry" "all" {
  provider = buildkite
}

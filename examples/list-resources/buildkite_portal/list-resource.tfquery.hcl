# Every portal (tokens are null: the service returns them only on creation); config { name = "…" } finds
# one by name.
list "buildkite_portal" "all" {
  provider = buildkite
}

# Every pipeline template; config { name = "…" } finds one by name.
list "buildkite_pipeline_template" "all" {
  provider = buildkite
}

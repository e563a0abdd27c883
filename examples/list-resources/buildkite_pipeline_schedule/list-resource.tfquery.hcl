# The schedules of one pipeline; without config, those of every pipeline.
list "buildkite_pipeline_schedule" "app" {
  provider = buildkite

  config {
    pipeline_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

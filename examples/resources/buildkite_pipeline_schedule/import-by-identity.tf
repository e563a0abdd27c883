# A schedule is named by its pipeline (slug, UUID or GraphQL ID) and its ID.
import {
  to = buildkite_pipeline_schedule.nightly
  identity = {
    pipeline_id = "app"
    id          = "fedcba98-7654-3210-fedc-ba9876543210"
  }
}

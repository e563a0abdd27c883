# A schedule is imported as <pipeline>/<schedule id>, the pipeline by slug, UUID or GraphQL ID.
terraform import buildkite_pipeline_schedule.nightly app/fedcba98-7654-3210-fedc-ba9876543210

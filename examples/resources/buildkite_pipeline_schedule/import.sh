# A schedule is imported by its ID (the UUID in state's id, or its GraphQL ID), its pipeline found through
# the pipelines' schedule listings:
terraform import buildkite_pipeline_schedule.nightly fedcba98-7654-3210-fedc-ba9876543210

# or as <pipeline>/<schedule id>, the pipeline by slug, UUID or GraphQL ID, which needs no search:
terraform import buildkite_pipeline_schedule.nightly app/fedcba98-7654-3210-fedc-ba9876543210

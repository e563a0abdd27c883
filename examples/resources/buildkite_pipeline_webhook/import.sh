# The webhook is imported by its pipeline's slug, UUID or GraphQL ID.
terraform import buildkite_pipeline_webhook.app app

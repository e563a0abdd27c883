# The webhook is imported by its pipeline's slug, UUID or GraphQL ID. The import reads the webhook through
# Buildkite's GraphQL API and fails when the pipeline's repository has none.
terraform import buildkite_pipeline_webhook.app app

# A notification service is imported by its UUID (as the official provider's is) or its GraphQL ID.
# Secrets the service masks or never returns (aws_account_id, api_key, headers) come from the configuration.
terraform import buildkite_notification_service.builds 0b4f2ce2-3b8d-4e5c-9f4c-6a1d2e3f4a5b

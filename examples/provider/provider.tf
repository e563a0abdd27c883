provider "buildkite" {
  # Or set BUILDKITE_API_TOKEN.
  api_token = var.buildkite_api_token
  # Or set BUILDKITE_ORGANIZATION_SLUG.
  organization = "acme"
}

variable "buildkite_api_token" {
  type      = string
  sensitive = true
}

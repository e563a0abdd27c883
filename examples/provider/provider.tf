# The provider's address is ci-rest/buildkite: without this block Terraform looks for hashicorp/buildkite,
# which does not exist.
terraform {
  required_providers {
    buildkite = {
      source = "ci-rest/buildkite"
    }
  }
}

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

# A webhook, created disabled; the service generates its token when none is given.
resource "buildkite_notification_service" "builds" {
  provider_type = "webhook"
  description   = "Finished builds of the platform team"
  enabled       = false
  scope         = "some_teams"
  scope_uuids   = [buildkite_team.platform.uuid]

  webhook = {
    url        = "https://hooks.example.com/buildkite"
    token_mode = "signature"
    events     = ["build.finished", "job.finished"]
  }
}

# Datadog Pipeline Visibility: the service shows only the end of the API key, so it is kept from here, in
# state.
resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"

  datadog_pipeline_visibility = {
    api_key      = var.datadog_api_key
    datadog_site = "datadoghq.eu"
    datadog_tags = "team:platform"
  }
}

# OpenTelemetry tracing with its headers write-only (Terraform 1.11 or later): they are in neither plan nor
# state. Change headers_wo_version (here the version of the token in the secret manager) to send new
# headers; token_wo and api_key_wo do the same for a webhook's token and a Datadog API key.
resource "buildkite_notification_service" "tracing" {
  provider_type        = "open_telemetry_tracing"
  branch_configuration = "main"

  open_telemetry_tracing = {
    endpoint           = "https://otlp.example.com"
    headers_wo         = { authorization = "Bearer ${var.otlp_token}" }
    headers_wo_version = "2"
  }
}

resource "buildkite_team" "platform" {
  name                = "Platform"
  privacy             = "VISIBLE"
  default_member_role = "MEMBER"
  default_team        = false
}

variable "datadog_api_key" {
  type      = string
  sensitive = true
}

variable "otlp_token" {
  type      = string
  sensitive = true
}

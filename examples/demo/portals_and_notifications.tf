# A portal that reads the latest builds, invoked with its own token, and where build events go: a webhook
# for the platform team's pipelines (created disabled until its receiver is ready) and Datadog Pipeline
# Visibility for every build.

resource "buildkite_portal" "build_stats" {
  slug                 = "build-stats"
  name                 = "Build stats"
  description          = "The latest builds, for the office dashboard"
  query                = "{ viewer { user { name } } }"
  allowed_ip_addresses = "10.0.0.0/8"
}

resource "buildkite_notification_service" "platform_builds" {
  provider_type = "webhook"
  description   = "Finished builds of the platform team"
  enabled       = false
  scope         = "some_teams"
  scope_uuids   = [buildkite_team.platform.uuid]

  webhook = {
    url    = "https://hooks.example.com/buildkite"
    events = ["build.finished"]
  }
}

resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"

  datadog_pipeline_visibility = {
    api_key      = "demo-datadog-api-key"
    datadog_tags = "team:platform"
  }
}

output "build_stats_portal" {
  value = "portal ${buildkite_portal.build_stats.slug} (${buildkite_portal.build_stats.uuid})"
}

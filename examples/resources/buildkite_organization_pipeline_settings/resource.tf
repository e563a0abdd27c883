# Only the settings written here are managed; the others are read and left as they are.
resource "buildkite_organization_pipeline_settings" "settings" {
  default_branch                   = "main"
  default_cluster_id               = buildkite_cluster.ci.uuid
  scheduled_job_expiry_in_minutes  = 180
  public_pipeline_creation_enabled = false

  # A bare bucket name: the scheme follows from the strategy. Both "" stop build export.
  build_export_location    = "acme-build-exports"
  build_export_strategy_id = "s3"
}

# The organization's pipeline settings: only what is written here is managed, and destroying it leaves them.
resource "buildkite_organization_pipeline_settings" "settings" {
  default_branch                   = "main"
  default_cluster_id               = buildkite_cluster.platform.uuid
  scheduled_job_expiry_in_minutes  = 120
  public_pipeline_creation_enabled = false
}

# A cache registry of the platform cluster: saved from main only, restored by branch and then from main.
resource "buildkite_cluster_cache_registry" "node_modules" {
  cluster_id  = buildkite_cluster.platform.id
  name        = "Node Modules"
  description = "npm caches of the web pipelines"
  emoji       = ":npm:"
  policy = jsonencode({
    save    = { scopes = { pipeline = true, branch = true } }
    restore = { scopes = [{ pipeline = "$current", branch = "$current" }, { pipeline = "$current", branch = "main" }] }
    rules = [
      { name = "save from main", effect = "allow", action = "save", when = "claims.build_branch == 'main'" },
      { effect = "allow", action = "restore" },
    ]
  })
}

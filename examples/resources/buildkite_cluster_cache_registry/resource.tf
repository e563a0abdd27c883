resource "buildkite_cluster" "ci" {
  name = "CI"
}

# Node modules: saved from main only, restored by branch, then from main.
resource "buildkite_cluster_cache_registry" "node_modules" {
  cluster_id  = buildkite_cluster.ci.id
  name        = "Node Modules"
  description = "npm caches of the web pipelines"
  emoji       = ":npm:"
  color       = "#cb3837"
  policy = jsonencode({
    save    = { scopes = { pipeline = true, branch = true } }
    restore = { scopes = [{ pipeline = "$current", branch = "$current" }, { pipeline = "$current", branch = "main" }] }
    rules = [
      { name = "save from main", effect = "allow", action = "save", when = "claims.build_branch == 'main'" },
      { effect = "allow", action = "restore" },
    ]
  })
}

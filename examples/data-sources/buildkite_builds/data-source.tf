# The last 20 finished builds of the web pipeline on main or release, created in May 2024.
data "buildkite_builds" "recent" {
  pipeline_slug = "web"
  branch        = ["main", "release"]
  state         = ["finished"]
  created_from  = "2024-05-01T00:00:00Z"
  created_to    = "2024-06-01T00:00:00Z"
  meta_data = {
    deploy = "true"
  }
  limit = 20
}

output "failed_builds" {
  value = [for b in data.buildkite_builds.recent.builds : b.web_url if b.state == "failed"]
}

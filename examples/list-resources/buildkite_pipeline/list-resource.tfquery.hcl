# The pipelines that build one repository; name, cluster_id and tag narrow the search too.
list "buildkite_pipeline" "app_repository" {
  provider = buildkite

  config {
    repository = "github.com/acme/app"
  }
}

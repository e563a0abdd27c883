resource "buildkite_cluster" "platform" {
  name        = "Platform"
  description = "Builds of the platform team"
  emoji       = ":rocket:"
  color       = "#A8D5FF"
}

resource "buildkite_organization_banner" "notice" {
  message = ":warning: Deploys are frozen from Friday 16:00 UTC. See the [release calendar](https://example.com/releases)."
}

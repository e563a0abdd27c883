# The addresses Buildkite sends webhooks from, for a firewall in front of a source-code host.
data "buildkite_meta" "this" {}

output "webhook_ips" {
  value = data.buildkite_meta.this.webhook_ips
}

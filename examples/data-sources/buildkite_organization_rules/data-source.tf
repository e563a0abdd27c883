# Every rule of the organization.
data "buildkite_organization_rules" "all" {}

output "trigger_rules" {
  value = [for r in data.buildkite_organization_rules.all.rules : r.id if r.action == "trigger_build"]
}

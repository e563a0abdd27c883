# Every template the token may see.
data "buildkite_pipeline_templates" "all" {}

output "template_names" {
  value = [for t in data.buildkite_pipeline_templates.all.pipeline_templates : t.name]
}

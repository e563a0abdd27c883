# A pipeline template, by name or by UUID.
data "buildkite_pipeline_template" "standard" {
  name = "Standard build"
}

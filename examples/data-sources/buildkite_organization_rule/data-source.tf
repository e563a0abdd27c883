# A rule, by UUID.
data "buildkite_organization_rule" "deploy" {
  id = "01234567-89ab-cdef-0123-456789abcdef"
}

# A team found by slug...
data "buildkite_team" "platform" {
  slug = "platform"
}

# ...or by UUID.
data "buildkite_team" "security" {
  id = "01234567-89ab-cdef-0123-456789abcdef"
}

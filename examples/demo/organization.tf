# The banner every member of the organization sees.
resource "buildkite_organization_banner" "notice" {
  message = ":construction: The **macos** queue is paused for the OS upgrade; Linux builds run as usual."
}

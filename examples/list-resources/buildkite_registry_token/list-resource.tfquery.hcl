# The tokens of one registry; without config, those of every registry.
list "buildkite_registry_token" "gems" {
  provider = buildkite

  config {
    registry_id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

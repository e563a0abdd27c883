# A pipeline is imported by its slug or its UUID.
terraform import buildkite_pipeline.app app
terraform import buildkite_pipeline.app 01234567-89ab-cdef-0123-456789abcdef

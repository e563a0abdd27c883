# A pipeline template is imported by its UUID or its GraphQL ID.
terraform import buildkite_pipeline_template.standard 01234567-89ab-cdef-0123-456789abcdef

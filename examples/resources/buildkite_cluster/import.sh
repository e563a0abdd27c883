# A cluster is imported by its ID, or by its GraphQL ID (the official provider's import ID).
terraform import buildkite_cluster.platform 01234567-89ab-cdef-0123-456789abcdef
terraform import buildkite_cluster.platform Q2x1c3Rlci0tLTAxMjM0NTY3LTg5YWItY2RlZi0wMTIzLTQ1Njc4OWFiY2RlZg==

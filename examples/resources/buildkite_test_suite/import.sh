# A test suite is imported by its slug, its ID or its GraphQL ID. An imported suite has no api_token: the service shows
# it only when the suite is created.
terraform import buildkite_test_suite.rspec rspec
terraform import buildkite_test_suite.rspec 01234567-89ab-cdef-0123-456789abcdef

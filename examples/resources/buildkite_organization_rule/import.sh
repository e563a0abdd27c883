# A rule is imported by its UUID or GraphQL ID; value is then written with the pipelines' UUIDs.
terraform import buildkite_organization_rule.deploy_triggers_app 01234567-89ab-cdef-0123-456789abcdef

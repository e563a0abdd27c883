# A rule is named by its UUID.
import {
  to = buildkite_organization_rule.deploy_triggers_app
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

# A membership is named by the member's user UUID (or the UUID of the invitation it was created with).
import {
  to = buildkite_organization_membership.lead
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

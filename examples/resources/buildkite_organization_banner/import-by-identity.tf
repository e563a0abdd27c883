# The banner is named by its UUID (or, when importing, the organization's slug).
import {
  to = buildkite_organization_banner.notice
  identity = {
    id = "01234567-89ab-cdef-0123-456789abcdef"
  }
}

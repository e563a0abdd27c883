# A member is imported by its user UUID; a pending invitation as invitation/<invitation uuid>.
terraform import buildkite_organization_membership.lead 01234567-89ab-cdef-0123-456789abcdef
terraform import buildkite_organization_membership.new_hire invitation/fedcba98-7654-3210-fedc-ba9876543210

# A registry token is imported as <registry slug or ID>/<token ID>. An imported token has no token
# value: the service shows it only when the token is created.
terraform import buildkite_registry_token.ci ruby-gems/01234567-89ab-cdef-0123-456789abcdef

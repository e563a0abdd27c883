# An image is imported as <cluster id>/<image id>, the official provider's form. The image ID is the
# service's (not a UUID): GET /v2/organizations/{org}/clusters/{cluster id}/agent-images lists them, and
# `terraform query` with the buildkite_hosted_agent_image list resource finds them.
terraform import buildkite_hosted_agent_image.ruby 01234567-89ab-cdef-0123-456789abcdef/snb5nqcik8ge2

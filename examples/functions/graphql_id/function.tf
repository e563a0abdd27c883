# GraphQL tools, and modules written for the official provider, take GraphQL IDs.
output "platform_cluster_graphql_id" {
  value = provider::buildkite::graphql_id("Cluster", buildkite_cluster.platform.id)
}

# "UGlwZWxpbmUtLS0wMTIzNDU2Ny04OWFiLWNkZWYtMDEyMy00NTY3ODlhYmNkZWY=", the ID of this pipeline in the
# GraphQL API.
output "pipeline_graphql_id" {
  value = provider::buildkite::graphql_id("Pipeline", "01234567-89ab-cdef-0123-456789abcdef")
}

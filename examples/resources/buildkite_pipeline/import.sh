# A pipeline is imported by its slug, its UUID or its GraphQL ID (the official provider's import ID).
terraform import buildkite_pipeline.app app
terraform import buildkite_pipeline.app 01234567-89ab-cdef-0123-456789abcdef
terraform import buildkite_pipeline.app UGlwZWxpbmUtLS0wMTIzNDU2Ny04OWFiLWNkZWYtMDEyMy00NTY3ODlhYmNkZWY=

# A secret is imported as <cluster id>/<secret id>. The service never shows the value, so an imported
# secret's value is unknown to Terraform: without value or value_wo in the configuration it is left as it
# is; set value, or value_wo and value_wo_version, and apply to send yours.
terraform import buildkite_cluster_secret.deploy_key 01234567-89ab-cdef-0123-456789abcdef/fedcba98-7654-3210-fedc-ba9876543210

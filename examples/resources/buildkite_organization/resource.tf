# Takes over the settings of the provider's organization that the configuration sets: a setting left out is
# read and never written. Destroying it removes the allowlist (only because it is set here) and leaves the
# other settings.
resource "buildkite_organization" "settings" {
  # Keep the network Terraform runs from in the list: the allowlist applies at once.
  allowed_api_ip_addresses         = ["192.0.2.0/24", "198.51.100.7/32"]
  revoke_inactive_tokens_after     = "DAYS_90"
  restrict_user_api_token_creation = true
}

# Every portal, across all pages of the listing.
data "buildkite_portals" "all" {}

output "portal_slugs" {
  value = [for p in data.buildkite_portals.all.portals : p.slug]
}

# A user who may manage the cluster.
data "buildkite_organization_member" "sam" {
  email = "sam@example.com"
}

resource "buildkite_cluster_maintainer" "sam" {
  cluster_uuid = buildkite_cluster.platform.uuid
  user_uuid    = data.buildkite_organization_member.sam.id
}

# A team whose members may manage the cluster.
resource "buildkite_cluster_maintainer" "platform_team" {
  cluster_uuid = buildkite_cluster.platform.uuid
  team_uuid    = buildkite_team.platform.id
}

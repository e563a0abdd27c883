# The egress networks of a cluster's hosted agents, to allow through a firewall.
data "buildkite_cluster_network_ranges" "hosted" {
  cluster_uuid = buildkite_cluster.hosted.uuid
}

output "hosted_agent_cidrs" {
  value = [for r in data.buildkite_cluster_network_ranges.hosted.ranges : r.cidr_range]
}

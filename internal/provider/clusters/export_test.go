package clusters

// The names the area's tests (package clusters_test) use that the area does not export.

var ClusterHostedAttrsForTest = clusterHostedAttrs

var PolicyEquivalentForTest = policyEquivalent

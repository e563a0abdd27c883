package buildkite

import "context"

// A cluster's agent tracing service (https://buildkite.com/docs/apis/graphql/schemas/object/cluster): the
// OpenTelemetry tracing notification service its agents export traces to. REST neither shows nor sets it;
// GraphQL's Cluster.agentTracingServiceUuid reads it and clusterUpdate sets it.

var (
	opGetClusterAgentTracing = queryFile("getClusterAgentTracing")
	// Selecting the same service twice selects nothing more.
	opSetClusterAgentTracing = mutationFile("setClusterAgentTracing", true)
)

// clusterTracingAnswer is the cluster part of both answers.
type clusterTracingAnswer struct {
	ID                      string  `json:"id"`
	AgentTracingServiceUUID *string `json:"agentTracingServiceUuid"`
}

// getClusterAgentTracingAnswer is the data of getClusterAgentTracing's answer.
type getClusterAgentTracingAnswer struct {
	Node *clusterTracingAnswer `json:"node"`
}

// setClusterAgentTracingAnswer is the data of setClusterAgentTracing's answer.
type setClusterAgentTracingAnswer struct {
	ClusterUpdate *struct {
		Cluster *clusterTracingAnswer `json:"cluster"`
	} `json:"clusterUpdate"`
}

// AgentTracingService returns the UUID of the tracing service of the cluster with this GraphQL ID, "" when
// it has none; a cluster the service does not know is an error IsNotFound recognises.
func (s *ClustersService) AgentTracingService(ctx context.Context, clusterGraphQLID string) (string, error) {
	out, err := gqlQuery[getClusterAgentTracingAnswer](ctx, s.client, opGetClusterAgentTracing, map[string]string{"id": clusterGraphQLID})
	if err != nil {
		return "", err
	}
	if out.Node == nil || out.Node.ID == "" {
		return "", s.client.graphQLNotFound(opGetClusterAgentTracing.name, "cluster "+clusterGraphQLID)
	}
	return deref(out.Node.AgentTracingServiceUUID), nil
}

// SetAgentTracingService selects the tracing service of the cluster with this GraphQL ID (clusterUpdate), or
// with serviceUUID Cleared clears it, and returns the service's answer: the UUID now selected, "" for none. An
// answer with errors that still carries the cluster returns its selection with the error marked Acted
// (ActedWithErrors).
func (s *ClustersService) SetAgentTracingService(ctx context.Context, clusterGraphQLID string, serviceUUID Optional[string]) (string, error) {
	orgID, err := s.client.organizationID(ctx)
	if err != nil {
		return "", err
	}
	vars := struct {
		OrganizationID string           `json:"organizationId"`
		ID             string           `json:"id"`
		Service        Optional[string] `json:"agentTracingServiceUuid"`
	}{orgID, clusterGraphQLID, serviceUUID}
	out, err := gqlMutate[setClusterAgentTracingAnswer](ctx, s.client, opSetClusterAgentTracing, vars)
	if err != nil {
		// The cluster in the answer holds the selection the service now has, whatever else the answer says.
		if out != nil && out.ClusterUpdate != nil && out.ClusterUpdate.Cluster != nil {
			acted, err := actedWith(out.ClusterUpdate.Cluster, err)
			return deref(acted.AgentTracingServiceUUID), err
		}
		return "", err
	}
	if out.ClusterUpdate == nil || out.ClusterUpdate.Cluster == nil {
		return "", s.client.graphQLNotFound(opSetClusterAgentTracing.name, "cluster "+clusterGraphQLID)
	}
	return deref(out.ClusterUpdate.Cluster.AgentTracingServiceUUID), nil
}

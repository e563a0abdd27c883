package buildkite

import "context"

// The macOS settings of a hosted queue (https://buildkite.com/docs/apis/graphql/cookbooks/hosted-agents): REST
// creates and resizes hosted queues and sets a Linux image, but neither sets nor shows a macOS queue's Xcode
// and macOS versions; GraphQL's clusterQueueUpdate sets them and
// ClusterQueue.hostedAgents.platformSettings.macos reads them.

var (
	opGetQueueMacSettings = queryFile("getClusterQueueMacSettings")
	// Setting the same values twice sets nothing more.
	opSetQueueMacSettings = mutationFile("updateClusterQueueMacSettings", true)
)

// getClusterQueueMacSettingsAnswer is the data of getClusterQueueMacSettings's answer.
type getClusterQueueMacSettingsAnswer struct {
	Node *queueHostedAnswer `json:"node"`
}

// updateClusterQueueMacSettingsAnswer is the data of updateClusterQueueMacSettings's answer.
type updateClusterQueueMacSettingsAnswer struct {
	ClusterQueueUpdate *struct {
		ClusterQueue *queueHostedAnswer `json:"clusterQueue"`
	} `json:"clusterQueueUpdate"`
}

// MacSettings are a macOS hosted queue's settings; "" where the service holds none.
type MacSettings struct {
	XcodeVersion string `json:"xcodeVersion"`
	MacosVersion string `json:"macosVersion"`
}

// MacSettingsWrite is a change of them. XcodeVersion is always sent (nil clears it, as the official
// provider clears a removed mac block); MacosVersion only when not nil.
type MacSettingsWrite struct {
	XcodeVersion *string `json:"xcodeVersion"`
	MacosVersion *string `json:"macosVersion,omitempty"`
}

type queueHostedAnswer struct {
	ID           string `json:"id"`
	HostedAgents *struct {
		PlatformSettings *struct {
			Macos *MacSettings `json:"macos"`
		} `json:"platformSettings"`
	} `json:"hostedAgents"`
}

func (a *queueHostedAnswer) mac() *MacSettings {
	if a.HostedAgents == nil || a.HostedAgents.PlatformSettings == nil || a.HostedAgents.PlatformSettings.Macos == nil {
		return &MacSettings{}
	}
	return a.HostedAgents.PlatformSettings.Macos
}

// MacSettings reads the macOS settings of the queue with this GraphQL ID (empty for a queue without
// them); a queue the service does not know is an error IsNotFound recognises.
func (s *QueuesService) MacSettings(ctx context.Context, queueGraphQLID string) (*MacSettings, error) {
	out, err := gqlQuery[getClusterQueueMacSettingsAnswer](ctx, s.client, opGetQueueMacSettings, map[string]string{"id": queueGraphQLID})
	if err != nil {
		return nil, err
	}
	if out.Node == nil || out.Node.ID == "" {
		return nil, s.client.graphQLNotFound(opGetQueueMacSettings.name, "cluster queue "+queueGraphQLID)
	}
	return out.Node.mac(), nil
}

// SetMacSettings sets the macOS settings of the hosted queue with this GraphQL ID (clusterQueueUpdate),
// sending its current instance shape, which every hosted update needs. An answer with errors that still
// carries the queue returns its settings with the error marked Acted (ActedWithErrors).
func (s *QueuesService) SetMacSettings(ctx context.Context, queueGraphQLID, shape string, in MacSettingsWrite) (*MacSettings, error) {
	orgID, err := s.client.organizationID(ctx)
	if err != nil {
		return nil, err
	}
	type platform struct {
		Macos MacSettingsWrite `json:"macos"`
	}
	type hosted struct {
		InstanceShape    string   `json:"instanceShape"`
		PlatformSettings platform `json:"platformSettings"`
	}
	vars := struct {
		OrganizationID string `json:"organizationId"`
		ID             string `json:"id"`
		HostedAgents   hosted `json:"hostedAgents"`
	}{orgID, queueGraphQLID, hosted{InstanceShape: shape, PlatformSettings: platform{Macos: in}}}
	out, err := gqlMutate[updateClusterQueueMacSettingsAnswer](ctx, s.client, opSetQueueMacSettings, vars)
	if err != nil {
		// The queue in the answer holds the settings the service now has, whatever else the answer says.
		if out != nil && out.ClusterQueueUpdate != nil && out.ClusterQueueUpdate.ClusterQueue != nil {
			return actedWith(out.ClusterQueueUpdate.ClusterQueue.mac(), err)
		}
		return nil, err
	}
	if out.ClusterQueueUpdate == nil || out.ClusterQueueUpdate.ClusterQueue == nil {
		return nil, s.client.graphQLNotFound(opSetQueueMacSettings.name, "cluster queue "+queueGraphQLID)
	}
	return out.ClusterQueueUpdate.ClusterQueue.mac(), nil
}

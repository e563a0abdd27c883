package buildkite

import (
	"encoding/json"
	"testing"
)

func TestHostedAgentsWriteBody(t *testing.T) {
	img := "registry.example/img:1"
	for want, in := range map[string]HostedAgentsWrite{
		`{"instanceShape":"LINUX_AMD64_2X4"}`:                                          {InstanceShape: "LINUX_AMD64_2X4"},
		`{"instanceShape":"LINUX_AMD64_2X4","agentImageRef":"registry.example/img:1"}`: {InstanceShape: "LINUX_AMD64_2X4", AgentImageRef: Value(img)},
		`{"instanceShape":"LINUX_AMD64_2X4","agentImageRef":null}`:                     {InstanceShape: "LINUX_AMD64_2X4", AgentImageRef: Cleared[string]()},
	} {
		b, err := json.Marshal(QueueUpdate{HostedAgents: &in})
		if err != nil || string(b) != `{"hostedAgents":`+want+`}` {
			t.Errorf("%+v marshals as %s (%v), want hostedAgents %s", in, b, err, want)
		}
	}
}

// TestHostedQueueDecodes reads a hosted queue's answer as the service gives it
// (https://buildkite.com/docs/apis/rest-api/clusters/queues).
func TestHostedQueueDecodes(t *testing.T) {
	var q Queue
	err := json.Unmarshal([]byte(`{"id":"q","key":"linux-small","hosted":true,"hosted_agents":{
		"instance_shape":{"machine_type":"linux","architecture":"amd64","cpu":2,"memory":4,"name":"LINUX_AMD64_2X4"},
		"platform_settings":{"linux":{"agent_image_ref":null}}}}`), &q)
	if err != nil || !q.Hosted || q.HostedAgents == nil || q.HostedAgents.InstanceShape.Name != "LINUX_AMD64_2X4" ||
		q.HostedAgents.InstanceShape.Architecture != "amd64" || q.HostedAgents.AgentImageRef() != "" {
		t.Fatalf("decoded %+v %v", q, err)
	}
	var self Queue
	if err := json.Unmarshal([]byte(`{"id":"q","key":"self"}`), &self); err != nil || self.Hosted || self.HostedAgents != nil ||
		self.HostedAgents.AgentImageRef() != "" {
		t.Fatalf("self-hosted %+v %v", self, err)
	}
}

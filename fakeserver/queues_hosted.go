package fakeserver

import "strings"

// Hosted (Buildkite-run) queues over REST (https://buildkite.com/docs/apis/rest-api/clusters/queues).
// A queue created with
// hostedAgents.instanceShape is hosted for good: its shape can change size but not machine type or
// architecture, a Linux queue's agent image is set by an update (a create drops it), and a self-hosted queue
// never becomes hosted.

// instanceShape is one row of the instance-shape tables
// (https://buildkite.com/docs/apis/graphql/schemas/enum/hostedagentsize).
type instanceShape struct {
	machineType, architecture string
	cpu, memory               int
}

// instanceShapes are the current shapes (the retired M2 and MACOS_M4_12X56 shapes are not).
var instanceShapes = map[string]instanceShape{
	"LINUX_AMD64_2X4":      {"linux", "amd64", 2, 4},
	"LINUX_AMD64_4X16":     {"linux", "amd64", 4, 16},
	"LINUX_AMD64_8X32":     {"linux", "amd64", 8, 32},
	"LINUX_AMD64_16X64":    {"linux", "amd64", 16, 64},
	"LINUX_AMD64_32X128":   {"linux", "amd64", 32, 128},
	"LINUX_AMD64_64X256":   {"linux", "amd64", 64, 256},
	"LINUX_ARM64_2X4":      {"linux", "arm64", 2, 4},
	"LINUX_ARM64_4X16":     {"linux", "arm64", 4, 16},
	"LINUX_ARM64_8X32":     {"linux", "arm64", 8, 32},
	"LINUX_ARM64_16X64":    {"linux", "arm64", 16, 64},
	"LINUX_ARM64_32X128":   {"linux", "arm64", 32, 128},
	"LINUX_ARM64_64X256":   {"linux", "arm64", 64, 256},
	"MACOS_ARM64_M4_6X28":  {"macos", "arm64", 6, 28},
	"MACOS_ARM64_M4_12X56": {"macos", "arm64", 12, 56},
}

// hostedQueue is the hosted part of a queue record; nil on a self-hosted queue.
type hostedQueue struct {
	shape string // a key of instanceShapes
	// agentImageRef is the Linux agent image; nil while the queue runs the default image.
	agentImageRef *string
	// xcodeVersion and macosVersion are the macOS settings, which only GraphQL sets and reads; "" when unset.
	xcodeVersion, macosVersion string //nolint:unused // for the GraphQL endpoint (branch gqle), which sets and reads them

}

// isMac reports whether the queue runs macOS agents.
func (h *hostedQueue) isMac() bool { return instanceShapes[h.shape].machineType == "macos" }

// hostedAgentsView is a hosted queue's hosted_agents (snake_case, unlike the request's camelCase).
type hostedAgentsView struct {
	InstanceShape    instanceShapeView `json:"instance_shape"`
	PlatformSettings map[string]any    `json:"platform_settings"`
}

type instanceShapeView struct {
	MachineType  string `json:"machine_type"`
	Architecture string `json:"architecture"`
	CPU          int    `json:"cpu"`
	Memory       int    `json:"memory"`
	Name         string `json:"name"`
}

// view shows h; a macOS queue's platform_settings are undocumented and shown empty.
func (h *hostedQueue) view() *hostedAgentsView {
	s := instanceShapes[h.shape]
	v := &hostedAgentsView{
		InstanceShape:    instanceShapeView{MachineType: s.machineType, Architecture: s.architecture, CPU: s.cpu, Memory: s.memory, Name: h.shape},
		PlatformSettings: map[string]any{},
	}
	if !h.isMac() {
		v.PlatformSettings["linux"] = map[string]any{"agent_image_ref": h.agentImageRef}
	}
	return v
}

// hostedAgentsInput is the request's hostedAgents object.
type hostedAgentsInput struct {
	given         bool   // hostedAgents is present and not null
	shape         string // "" when instanceShape is missing, null or empty
	imageSet      bool   // agentImageRef is present (null included)
	imageRef      *string
	problemsFound bool
}

// readHostedAgents reads the hostedAgents object (read with jsonObject.Object, which records a value that
// is not an object); a property of the wrong type inside is a problem named after it.
func readHostedAgents(obj opt[map[string]any], problems *validationErrors) hostedAgentsInput {
	if !obj.Given() {
		return hostedAgentsInput{}
	}
	out := hostedAgentsInput{given: true}
	bad := func(field, reason string) { problems.add(field, reason); out.problemsFound = true }
	if raw, ok := obj.Value["instanceShape"]; ok && raw != nil {
		s, isString := raw.(string)
		if !isString {
			bad("instance_shape", "must be a string")
		}
		out.shape = s
	}
	if raw, ok := obj.Value["agentImageRef"]; ok {
		out.imageSet = true
		switch v := raw.(type) {
		case nil:
		case string:
			if strings.TrimSpace(v) != "" {
				out.imageRef = &v
			}
		default:
			bad("agent_image_ref", "must be a string")
		}
	}
	return out
}

// checkHostedCreate checks the hostedAgents of a create: a known shape is required. The image is dropped
// (the service takes it only on an update).
func checkHostedCreate(h hostedAgentsInput, problems *validationErrors) *hostedQueue {
	if !h.given || h.problemsFound {
		return nil
	}
	switch _, known := instanceShapes[h.shape]; {
	case h.shape == "":
		problems.addBlank("instance_shape")
		return nil
	case !known:
		problems.add("instance_shape", "is not included in the list")
		return nil
	}
	return &hostedQueue{shape: h.shape}
}

// applyHostedUpdate applies the hostedAgents of an update to q, or returns the service's refusal: the
// shape is required and may change size only; the image needs a Linux queue; a self-hosted queue cannot
// be made hosted. A lock must be held; nothing changes on a refusal.
func applyHostedUpdate(q *queueRecord, h hostedAgentsInput) *apiError {
	if !h.given || h.problemsFound {
		return nil
	}
	if q.hosted == nil {
		return errValidation(validationErrors{{"hosted_agents", "cannot be configured for a self-hosted queue"}})
	}
	next, known := instanceShapes[h.shape]
	cur := instanceShapes[q.hosted.shape]
	if !known || next.machineType != cur.machineType || next.architecture != cur.architecture {
		return errValidation(validationErrors{{"instance_shape", "cannot be changed to " + h.shape}})
	}
	if h.imageRef != nil && next.machineType == "macos" {
		return errValidation(validationErrors{{"agent_image_ref", "cannot be configured for hosted mac queues"}})
	}
	q.hosted.shape = h.shape
	if h.imageSet {
		q.hosted.agentImageRef = h.imageRef
	}
	return nil
}

// SetQueueAgentImageRef sets (or with nil clears) a hosted Linux queue's agent image in the store, the way a
// change made in the web interface would; tests use it to make drift. It reports whether the queue is one.
func (st *Store) SetQueueAgentImageRef(org, clusterID, queueID string, ref *string) bool {
	defer st.edit()()
	q := st.queue(org, clusterID, queueID)
	if q == nil || q.hosted == nil || q.hosted.isMac() {
		return false
	}
	q.hosted.agentImageRef = ref
	return true
}

// QueueInstanceShape returns a queue's instance shape, "" for a self-hosted queue; ok is false when there is
// no such queue.
func (st *Store) QueueInstanceShape(org, clusterID, queueID string) (shape string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	q := st.queue(org, clusterID, queueID)
	if q == nil {
		return "", false
	}
	if q.hosted == nil {
		return "", true
	}
	return q.hosted.shape, true
}

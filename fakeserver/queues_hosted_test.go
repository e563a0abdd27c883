package fakeserver

import (
	"testing"
)

func TestHostedQueueLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"

	// The image sent on create is dropped: the queue starts on the default image.
	r := e.api("POST", base, map[string]any{"key": "linux", "hostedAgents": map[string]any{
		"instanceShape": "LINUX_AMD64_2X4", "agentImageRef": "registry.example/img:1"}})
	expect(t, r, 201)
	q := r.object(t)
	qid := q["id"].(string)
	ha, _ := q["hosted_agents"].(map[string]any)
	if q["hosted"] != true || ha == nil {
		t.Fatalf("created %v", q)
	}
	shape := ha["instance_shape"].(map[string]any)
	if shape["name"] != "LINUX_AMD64_2X4" || shape["machine_type"] != "linux" || shape["architecture"] != "amd64" ||
		shape["cpu"] != float64(2) || shape["memory"] != float64(4) {
		t.Fatalf("shape %v", shape)
	}
	linux := ha["platform_settings"].(map[string]any)["linux"].(map[string]any)
	if v, ok := linux["agent_image_ref"]; !ok || v != nil {
		t.Fatalf("image after create %v", linux)
	}

	// The second step: the image with the current shape; then a resize keeps the image.
	r = e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{
		"instanceShape": "LINUX_AMD64_2X4", "agentImageRef": "registry.example/img:1"}})
	expect(t, r, 200)
	r = e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_8X32"}})
	expect(t, r, 200)
	ha = e.api("GET", base+"/"+qid, nil).object(t)["hosted_agents"].(map[string]any)
	if ha["instance_shape"].(map[string]any)["name"] != "LINUX_AMD64_8X32" ||
		ha["platform_settings"].(map[string]any)["linux"].(map[string]any)["agent_image_ref"] != "registry.example/img:1" {
		t.Fatalf("after resize %v", ha)
	}
	// null goes back to the default image.
	r = e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_8X32", "agentImageRef": nil}})
	expect(t, r, 200)
	if v := r.object(t)["hosted_agents"].(map[string]any)["platform_settings"].(map[string]any)["linux"].(map[string]any)["agent_image_ref"]; v != nil {
		t.Fatalf("image after null %v", v)
	}
	if shape, ok := e.srv.Store().QueueInstanceShape("acme", cid, qid); !ok || shape != "LINUX_AMD64_8X32" {
		t.Fatalf("store shape %q %v", shape, ok)
	}

	// A self-hosted queue shows neither key.
	self := e.api("GET", base+"/"+e.createQueue(cid, "self"), nil).object(t)
	if _, ok := self["hosted"]; ok {
		t.Fatalf("self-hosted %v", self)
	}
	if _, ok := self["hosted_agents"]; ok {
		t.Fatalf("self-hosted %v", self)
	}
}

func TestHostedQueueMac(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"
	r := e.api("POST", base, map[string]any{"key": "mac", "hostedAgents": map[string]any{"instanceShape": "MACOS_ARM64_M4_6X28"}})
	expect(t, r, 201)
	q := r.object(t)
	ha := q["hosted_agents"].(map[string]any)
	if ha["instance_shape"].(map[string]any)["machine_type"] != "macos" || len(ha["platform_settings"].(map[string]any)) != 0 {
		t.Fatalf("mac %v", ha)
	}
	qid := q["id"].(string)
	expect(t, e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{"instanceShape": "MACOS_ARM64_M4_12X56"}}), 200)
	expectError(t, e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{
		"instanceShape": "MACOS_ARM64_M4_12X56", "agentImageRef": "img"}}), 422,
		"Validation failed: Agent image ref cannot be configured for hosted mac queues")
	expectError(t, e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": map[string]any{"instanceShape": "LINUX_ARM64_2X4"}}), 422,
		"Validation failed: Instance shape cannot be changed to LINUX_ARM64_2X4")
	if e.srv.Store().SetQueueAgentImageRef("acme", cid, qid, nil) {
		t.Fatal("a mac queue took an image")
	}
}

func TestHostedQueueRefusals(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"
	creates := map[string]any{
		"Validation failed: Instance shape can't be blank":              map[string]any{},
		"Validation failed: Instance shape is not included in the list": map[string]any{"instanceShape": "MACOS_M2_4X7"},
		"Validation failed: Instance shape must be a string":            map[string]any{"instanceShape": 4},
		"Validation failed: Agent image ref must be a string":           map[string]any{"instanceShape": "LINUX_AMD64_2X4", "agentImageRef": 1},
		"Validation failed: HostedAgents must be an object":             "LINUX_AMD64_2X4",
	}
	for message, hosted := range creates {
		expectError(t, e.api("POST", base, map[string]any{"key": "k", "hostedAgents": hosted}), 422, message)
	}
	if l := e.api("GET", base, nil).list(t); len(l) != 0 {
		t.Fatalf("a refused create made %v", l)
	}

	qid := e.api("POST", base, map[string]any{"key": "linux", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}).object(t)["id"].(string)
	updates := map[string]map[string]any{
		// The documented message for a missing shape ends in a space.
		"Validation failed: Instance shape cannot be changed to ":                    {"agentImageRef": "img"},
		"Validation failed: Instance shape cannot be changed to LINUX_ARM64_2X4":     {"instanceShape": "LINUX_ARM64_2X4"},
		"Validation failed: Instance shape cannot be changed to MACOS_ARM64_M4_6X28": {"instanceShape": "MACOS_ARM64_M4_6X28"},
		"Validation failed: Instance shape cannot be changed to LINUX_AMD64_1X1":     {"instanceShape": "LINUX_AMD64_1X1"},
	}
	for message, hosted := range updates {
		expectError(t, e.api("PUT", base+"/"+qid, map[string]any{"hostedAgents": hosted, "description": "not applied"}), 422, message)
	}
	if q := e.api("GET", base+"/"+qid, nil).object(t); q["description"] != "" ||
		q["hosted_agents"].(map[string]any)["instance_shape"].(map[string]any)["name"] != "LINUX_AMD64_2X4" {
		t.Fatalf("a refused update changed %v", q)
	}

	self := e.createQueue(cid, "self")
	expectError(t, e.api("PUT", base+"/"+self, map[string]any{"hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), 422,
		"Validation failed: Hosted agents cannot be configured for a self-hosted queue")

	// Scope: a read-only token cannot create a hosted queue.
	e.srv.Store().AddToken("read-only", []string{"acme"}, []string{"read_clusters"})
	expect(t, e.do("POST", "/v2/organizations/acme"+base, "read-only",
		map[string]any{"key": "x", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), 403)
}

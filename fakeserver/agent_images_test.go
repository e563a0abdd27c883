package fakeserver

import (
	"net/http"
	"regexp"
	"testing"
	"time"
)

// hostedImageCluster creates a cluster "Images" with a hosted queue, which agent images need, and returns its ID.
func (e *testEnv) hostedImageCluster() string {
	e.t.Helper()
	c := e.createCluster("Images")
	expect(e.t, e.api("POST", "/clusters/"+c+"/queues", map[string]any{
		"key": "hosted", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), http.StatusCreated)
	return c
}

func TestAgentImageBuildsThenReady(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now, AgentImageBuildTime: 90 * time.Second})
	c := e.hostedImageCluster()
	base := "/clusters/" + c + "/agent-images"
	created := e.api("POST", base, map[string]any{"name": "ruby", "dockerfile": "RUN apt-get install -y ruby\n"})
	expect(t, created, http.StatusCreated)
	img := created.object(t)
	hasKeys(t, img, "id", "name", "status", "image_ref", "version", "last_build_error", "dockerfile", "base_image",
		"composed_dockerfile", "url", "web_url", "cluster_url")
	id := img["id"].(string)
	if !regexp.MustCompile(`^[a-z0-9]{13}$`).MatchString(id) {
		t.Errorf("id %q is not shaped as the docs' example", id)
	}
	if img["status"] != "BUILDING" || img["image_ref"] != nil || img["last_build_error"] != nil || img["version"] != 1.0 ||
		img["dockerfile"] != "RUN apt-get install -y ruby\n" ||
		img["composed_dockerfile"] != img["base_image"].(string)+"\nRUN apt-get install -y ruby\n" {
		t.Errorf("created = %v", img)
	}

	clock.tick() // one minute: still building
	if got := e.api("GET", base+"/"+id, nil).object(t); got["status"] != "BUILDING" || got["image_ref"] != nil {
		t.Errorf("after a minute = %v", got)
	}
	clock.tick()
	got := e.api("GET", base+"/"+id, nil).object(t)
	if got["status"] != "READY" || got["image_ref"] == nil || got["last_build_error"] != nil {
		t.Errorf("after two minutes = %v", got)
	}
	if st, ok := e.srv.Store().AgentImageStatus("acme", c, id); !ok || st != "READY" {
		t.Errorf("AgentImageStatus = %q, %t", st, ok)
	}
	if l := e.api("GET", base, nil).list(t); len(l) != 1 || l[0]["id"] != id || l[0]["status"] != "READY" {
		t.Errorf("list = %v", l)
	}

	expect(t, e.api("DELETE", base+"/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", base+"/"+id, nil), http.StatusNotFound, "No agent image found")
	expectError(t, e.api("DELETE", base+"/"+id, nil), http.StatusNotFound, "No agent image found")
}

func TestAgentImageFailingStepFails(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now})
	c := e.hostedImageCluster()
	base := "/clusters/" + c + "/agent-images"
	for _, tc := range []struct{ dockerfile, wantErr string }{
		{"RUN echo hi\nRUN false\n", `process "/bin/sh -c false" did not complete successfully: exit code: 1`},
		{"run   exit 3", `process "/bin/sh -c exit 3" did not complete successfully: exit code: 3`},
		{"RUN exit 0\n", ""},
		{"RUN falsehood\n", ""},
	} {
		created := e.api("POST", base, map[string]any{"name": "img-" + tc.dockerfile, "dockerfile": tc.dockerfile})
		expect(t, created, http.StatusCreated)
		id := created.object(t)["id"].(string)
		clock.tick()
		got := e.api("GET", base+"/"+id, nil).object(t)
		switch {
		case tc.wantErr == "" && (got["status"] != "READY" || got["last_build_error"] != nil):
			t.Errorf("%q: %v, want READY", tc.dockerfile, got)
		case tc.wantErr != "" && (got["status"] != "FAILED" || got["last_build_error"] != tc.wantErr || got["image_ref"] != nil):
			t.Errorf("%q: %v, want FAILED with %q", tc.dockerfile, got, tc.wantErr)
		}
	}
}

func TestAgentImageRefusesBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.hostedImageCluster()
	base := "/clusters/" + c + "/agent-images"
	expect(t, e.api("POST", base, map[string]any{"name": "taken", "dockerfile": "RUN true"}), http.StatusCreated)
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"dockerfile": "RUN true"}, "Validation failed: Name can't be blank"},
		{map[string]any{"name": "x"}, "Validation failed: Dockerfile can't be blank"},
		{map[string]any{"name": "x", "dockerfile": "RUN true\n  from ubuntu:24.04\n"},
			"Validation failed: Dockerfile must not contain a FROM instruction: Buildkite provides the base image"},
		{map[string]any{"name": "taken", "dockerfile": "RUN true"}, "Validation failed: Name has already been taken"},
		{map[string]any{"name": 5, "dockerfile": "RUN true"}, "Validation failed: Name must be a string"},
	} {
		expectError(t, e.api("POST", base, tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	expectError(t, e.api("POST", "/clusters/nope/agent-images", map[string]any{"name": "x", "dockerfile": "RUN true"}),
		http.StatusNotFound, "No cluster found")
}

func TestAgentImageNeedsHostedCluster(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.createCluster("Self-hosted")
	e.createQueue(c, "self")
	base := "/clusters/" + c + "/agent-images"
	if l := e.api("GET", base, nil).list(t); len(l) != 0 {
		t.Errorf("list = %v, want []", l)
	}
	expectError(t, e.api("GET", base+"/abc", nil), http.StatusNotFound, "No agent image found")
	expectError(t, e.api("DELETE", base+"/abc", nil), http.StatusNotFound, "No agent image found")
	expectError(t, e.api("POST", base, map[string]any{"name": "x", "dockerfile": "RUN true"}), http.StatusUnprocessableEntity,
		"Validation failed: Cluster does not have hosted agents: create a hosted queue in it first")
}

func TestAgentImageOrganizationWithoutHostedAgents(t *testing.T) {
	e := newEnv(t, Options{NoHostedAgents: true})
	c := e.createCluster("Images")
	expectError(t, e.api("POST", "/clusters/"+c+"/queues", map[string]any{
		"key": "hosted", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), http.StatusUnprocessableEntity,
		"Validation failed: Hosted agents are not available: the organization does not have hosted agents")
	base := "/clusters/" + c + "/agent-images"
	for _, r := range []response{e.api("GET", base, nil), e.api("POST", base, map[string]any{"name": "x", "dockerfile": "RUN true"}),
		e.api("GET", base+"/abc", nil), e.api("DELETE", base+"/abc", nil)} {
		expectError(t, r, http.StatusNotFound, "Not Found")
	}
	expect(t, e.do("GET", "/v2/organizations/acme/clusters/"+c+"/agent-images", "wrong-token", nil), http.StatusUnauthorized)
}

func TestAgentImageInUseCannotBeDeleted(t *testing.T) {
	e := newEnv(t, Options{AgentImageBuildTime: -1})
	c := e.hostedImageCluster()
	base := "/clusters/" + c + "/agent-images"
	img := e.api("POST", base, map[string]any{"name": "ruby", "dockerfile": "RUN true"}).object(t)
	ref := img["image_ref"].(string)
	q := e.api("GET", "/clusters/"+c+"/queues", nil).list(t)[0]["id"].(string)
	if !e.srv.Store().SetQueueAgentImageRef("acme", c, q, &ref) {
		t.Fatal("the hosted queue was not found")
	}
	expectError(t, e.api("DELETE", base+"/"+img["id"].(string), nil), http.StatusUnprocessableEntity,
		"Agent image is in use by queues hosted: change their agent image before deleting it")
	e.srv.Store().SetQueueAgentImageRef("acme", c, q, nil)
	expect(t, e.api("DELETE", base+"/"+img["id"].(string), nil), http.StatusNoContent)
}

func TestAgentImageGoesWithItsCluster(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.hostedImageCluster()
	id := e.api("POST", "/clusters/"+c+"/agent-images", map[string]any{"name": "ruby", "dockerfile": "RUN true"}).object(t)["id"].(string)
	if !e.srv.Store().Exists(KindAgentImage, "acme", c+"/"+id) {
		t.Fatal("Exists: the image is not there")
	}
	if e.srv.Store().Exists(KindAgentImage, "acme", "other/"+id) {
		t.Error("Exists: the image is found under another cluster")
	}
	if !e.srv.Store().Remove(KindCluster, "acme", c) {
		t.Fatal("the cluster was not removed")
	}
	if e.srv.Store().Exists(KindAgentImage, "acme", c+"/"+id) {
		t.Error("the image outlived its cluster")
	}
}

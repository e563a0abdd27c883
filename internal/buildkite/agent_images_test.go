package buildkite

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newHostedCluster creates a cluster with a hosted queue, which agent images need, and returns its ID.
func newHostedCluster(t *testing.T, c *Client, name string) string {
	t.Helper()
	cl := newCluster(t, c, name)
	if _, err := c.Queues.Create(context.Background(), cl, QueueCreate{Key: "hosted",
		HostedAgents: &HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4"}}); err != nil {
		t.Fatal(err)
	}
	return cl
}

func TestAgentImages_Emulator(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{AgentImageBuildTime: 300 * time.Millisecond})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	cl := newHostedCluster(t, c, "Images")

	img, err := c.AgentImages.Create(ctx, cl, AgentImageCreate{Name: "ruby", Dockerfile: "RUN apt-get install -y ruby\n"})
	if err != nil {
		t.Fatal(err)
	}
	if img.ID == "" || img.Name != "ruby" || img.Status != AgentImageBuilding || img.ImageRef != nil || img.Version != "1" ||
		img.Dockerfile != "RUN apt-get install -y ruby\n" || img.BaseImage == "" || img.LastBuildError != nil {
		t.Fatalf("created %+v", img)
	}
	deadline := time.Now().Add(5 * time.Second)
	for img.Status == AgentImageBuilding && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if img, err = c.AgentImages.Poll(ctx, cl, img.ID); err != nil {
			t.Fatal(err)
		}
	}
	if img.Status != AgentImageReady || img.ImageRef == nil || *img.ImageRef == "" {
		t.Fatalf("after the build: %+v", img)
	}
	if got, err := c.AgentImages.Get(ctx, cl, img.ID); err != nil || got.Status != AgentImageReady {
		t.Errorf("Get = %+v, %v", got, err)
	}
	if all, err := c.AgentImages.List(ctx, cl); err != nil || len(all) != 1 || all[0].ID != img.ID {
		t.Errorf("List = %+v, %v", all, err)
	}
	if _, err := c.AgentImages.Create(ctx, cl, AgentImageCreate{Name: "bad", Dockerfile: "FROM ubuntu\n"}); !IsValidation(err) {
		t.Errorf("a Dockerfile with FROM: %v", err)
	}
	if err := c.AgentImages.Delete(ctx, cl, img.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentImages.Poll(ctx, cl, img.ID); !IsNotFound(err) {
		t.Errorf("Poll after Delete: %v", err)
	}
}

// TestAgentImages_failedBuild: a build that fails answers its error.
func TestAgentImages_failedBuild(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{AgentImageBuildTime: -1})
	c := newTestClient(t, e.url)
	cl := newHostedCluster(t, c, "Images")
	img, err := c.AgentImages.Create(context.Background(), cl, AgentImageCreate{Name: "broken", Dockerfile: "RUN false\n"})
	if err != nil {
		t.Fatal(err)
	}
	if img.Status != AgentImageFailed || img.LastBuildError == nil || *img.LastBuildError == "" || img.ImageRef != nil {
		t.Fatalf("created %+v", img)
	}
}

// TestAgentImages_lostCreateAdopted: a create that acts and loses its answer is found by its name.
func TestAgentImages_lostCreateAdopted(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url)
	cl := newHostedCluster(t, c, "Images")
	lossy := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/agent-images"), "drop", nil)))
	img, err := lossy.AgentImages.Create(context.Background(), cl, AgentImageCreate{Name: "ruby", Dockerfile: "RUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	if all, err := c.AgentImages.List(context.Background(), cl); err != nil || len(all) != 1 || all[0].ID != img.ID {
		t.Fatalf("after a lost answer: %+v, %v; want the one image adopted", all, err)
	}
}

func TestAgentImageVersionDecodes(t *testing.T) {
	for body, want := range map[string]AgentImageVersion{`{"version":3}`: "3", `{"version":"2024.1"}`: "2024.1", `{"version":null}`: ""} {
		var img AgentImage
		if err := json.Unmarshal([]byte(body), &img); err != nil || img.Version != want {
			t.Errorf("%s decodes as %q, %v; want %q", body, img.Version, err, want)
		}
	}
	var img AgentImage
	if err := json.Unmarshal([]byte(`{"version":{}}`), &img); err == nil {
		t.Errorf("an object version decodes as %q", img.Version)
	}
}

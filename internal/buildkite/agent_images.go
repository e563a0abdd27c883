package buildkite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// AgentImagesService manages the custom agent images of a hosted cluster (/clusters/{id}/agent-images):
// Buildkite builds an image from a Dockerfile body on its own base image, and a hosted Linux queue runs
// on it by naming its ImageRef. An image cannot be changed: it is created, read and deleted.
type AgentImagesService struct{ client *Client }

// Agent image build statuses.
const (
	AgentImageBuilding = "BUILDING"
	AgentImageReady    = "READY"
	AgentImageFailed   = "FAILED"
)

// AgentImage is a custom agent image.
type AgentImage struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"` // AgentImageBuilding, AgentImageReady or AgentImageFailed
	// ImageRef is what a hosted queue's agent_image_ref names the built image by; nil until it is built.
	ImageRef *string `json:"image_ref"`
	// Version is the image's version as the service answers it (a number in its docs' example; a string is
	// taken as it is).
	Version AgentImageVersion `json:"version"`
	// LastBuildError is why the last build failed; nil unless it did.
	LastBuildError *string `json:"last_build_error"`
	// Dockerfile is the body the image was created with; BaseImage is the FROM line Buildkite puts before
	// it, and ComposedDockerfile the two together.
	Dockerfile         string     `json:"dockerfile"`
	BaseImage          string     `json:"base_image"`
	ComposedDockerfile string     `json:"composed_dockerfile"`
	URL                string     `json:"url"`
	WebURL             string     `json:"web_url"`
	ClusterURL         string     `json:"cluster_url"`
	CreatedAt          *time.Time `json:"created_at"`
}

// AgentImageVersion is an image's version: a JSON number or string, kept as text ("" when null).
type AgentImageVersion string

// UnmarshalJSON takes a number, a string or null.
func (v *AgentImageVersion) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*v = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = AgentImageVersion(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("agent image version %s is neither a number nor a string", b)
		}
		*v = AgentImageVersion(n.String())
	}
	return nil
}

// AgentImageCreate is the body of a create. Dockerfile holds no FROM: Buildkite provides the base image.
type AgentImageCreate struct {
	Name       string `json:"name"`
	Dockerfile string `json:"dockerfile"`
}

func (s *AgentImagesService) imagesPath(clusterID string, segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"clusters", clusterID, "agent-images"}, segments...)...)
}

// List returns every image of a cluster, across all pages. A cluster without hosted agents has none.
func (s *AgentImagesService) List(ctx context.Context, clusterID string) ([]AgentImage, error) {
	p, err := s.imagesPath(clusterID)
	if err != nil {
		return nil, err
	}
	return listAll[AgentImage](ctx, s.client, p, nil)
}

// Get returns one image of a cluster; a refresh of many answers from the cluster's listing. To follow a
// build, use Poll, which always asks afresh.
func (s *AgentImagesService) Get(ctx context.Context, clusterID, id string) (*AgentImage, error) {
	list, err := s.imagesPath(clusterID)
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(img *AgentImage) []string { return []string{img.ID} })
}

// Poll reads one image afresh (never from a kept listing): its status as the service sees it now.
func (s *AgentImagesService) Poll(ctx context.Context, clusterID, id string) (*AgentImage, error) {
	p, err := s.imagesPath(clusterID, id)
	if err != nil {
		return nil, err
	}
	return get[AgentImage](ctx, s.client, p, nil)
}

// Create creates an image (201), which then builds: its status is BUILDING until READY or FAILED. A name
// names one image of its cluster, so when the answer is lost the image of the name, if it was not there
// before the request was sent, is the one made: it is adopted.
func (s *AgentImagesService) Create(ctx context.Context, clusterID string, in AgentImageCreate) (*AgentImage, error) {
	p, err := s.imagesPath(clusterID)
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[AgentImage]{
		matching: func(ctx context.Context) ([]AgentImage, error) {
			return listMatching(ctx, s.client, p, func(img *AgentImage) bool { return img.Name == in.Name })
		},
		id: func(img *AgentImage) string { return img.ID },
		describe: func(img *AgentImage) string {
			return fmt.Sprintf("agent image %q (ID %s) in cluster %s", img.Name, img.ID, clusterID)
		},
	})
}

// Delete deletes an image (204). The service refuses (422) while a queue runs on it.
func (s *AgentImagesService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.imagesPath(clusterID, id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

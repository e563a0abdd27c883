package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// PipelineTemplatesService manages pipeline templates.
type PipelineTemplatesService struct{ client *Client }

// PipelineTemplate is a reusable step configuration
// (https://buildkite.com/docs/apis/rest-api/pipeline-templates); enterprise plan only.
type PipelineTemplate struct {
	UUID          string     `json:"uuid"`
	GraphQLID     string     `json:"graphql_id"`
	Name          string     `json:"name"`
	Description   string     `json:"description"`
	Configuration string     `json:"configuration"`
	Available     bool       `json:"available"`
	URL           string     `json:"url"`
	WebURL        string     `json:"web_url"`
	CreatedAt     *time.Time `json:"created_at"`
	CreatedBy     *User      `json:"created_by"`
	UpdatedAt     *time.Time `json:"updated_at"`
	UpdatedBy     *User      `json:"updated_by"`
}

var _ identified = (*PipelineTemplate)(nil)

func (x *PipelineTemplate) identity() (string, string) { return "uuid", x.UUID }

// PipelineTemplateCreate is the body of a create.
type PipelineTemplateCreate struct {
	Name          string  `json:"name"`
	Configuration string  `json:"configuration"`
	Description   *string `json:"description,omitempty"`
	Available     *bool   `json:"available,omitempty"`
}

// PipelineTemplateUpdate is the body of a PATCH; nil fields are not sent.
type PipelineTemplateUpdate struct {
	Name          *string `json:"name,omitempty"`
	Configuration *string `json:"configuration,omitempty"`
	Description   *string `json:"description,omitempty"`
	Available     *bool   `json:"available,omitempty"`
}

// List returns every template the caller may see, across all pages.
func (s *PipelineTemplatesService) List(ctx context.Context) ([]PipelineTemplate, error) {
	p, err := s.client.orgPath("pipeline-templates")
	if err != nil {
		return nil, err
	}
	return listAll[PipelineTemplate](ctx, s.client, p, nil)
}

// Get returns one template by UUID.
func (s *PipelineTemplatesService) Get(ctx context.Context, id string) (*PipelineTemplate, error) {
	list, err := s.client.orgPath("pipeline-templates")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(t *PipelineTemplate) []string { return []string{t.UUID} })
}

// Create creates a template. Templates are told apart by name in the interface people use, so after an
// unknown outcome the one template with the same name and configuration that was not there before the
// create was sent is adopted.
func (s *PipelineTemplatesService) Create(ctx context.Context, in PipelineTemplateCreate) (*PipelineTemplate, error) {
	p, err := s.client.orgPath("pipeline-templates")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[PipelineTemplate]{
		matching: func(ctx context.Context) ([]PipelineTemplate, error) {
			all, err := s.List(ctx)
			return keep(all, err, func(t *PipelineTemplate) bool { return t.Name == in.Name && t.Configuration == in.Configuration })
		},
		id:       func(t *PipelineTemplate) string { return t.UUID },
		describe: func(t *PipelineTemplate) string { return fmt.Sprintf("pipeline template %q (UUID %s)", t.Name, t.UUID) },
	})
}

// Update changes a template with PATCH.
func (s *PipelineTemplatesService) Update(ctx context.Context, id string, in PipelineTemplateUpdate) (*PipelineTemplate, error) {
	p, err := s.client.orgPath("pipeline-templates", id)
	if err != nil {
		return nil, err
	}
	return change[PipelineTemplate](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a template; the service refuses (422) while pipelines use it.
func (s *PipelineTemplatesService) Delete(ctx context.Context, id string) error {
	p, err := s.client.orgPath("pipeline-templates", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

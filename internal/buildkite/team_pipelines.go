package buildkite

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// TeamPipelinesService manages teams' access to pipelines.
type TeamPipelinesService struct{ client *Client }

// TeamPipeline is a team's access to a pipeline (https://buildkite.com/docs/apis/rest-api/teams/pipelines).
type TeamPipeline struct {
	// GraphQLID is empty where the service sends none: the documentation gives associations no identifiers.
	GraphQLID   string `json:"graphql_id"`
	PipelineID  string `json:"pipeline_id"`
	PipelineURL string `json:"pipeline_url"`
	// AccessLevel is read_only, build_and_read or manage_build_and_read.
	AccessLevel string     `json:"access_level"`
	CreatedAt   *time.Time `json:"created_at"`
}

var _ identified = (*TeamPipeline)(nil)

func (x *TeamPipeline) identity() (string, string) { return "pipeline_id", x.PipelineID }

// PipelineSlug is the pipeline's slug, the last segment of PipelineURL ("" when there is none).
func (tp *TeamPipeline) PipelineSlug() string {
	return lastSegment(tp.PipelineURL)
}

// lastSegment is the last path segment of an API URL.
func lastSegment(u string) string {
	u = strings.TrimSuffix(u, "/")
	if i := strings.LastIndexByte(u, '/'); i >= 0 {
		return u[i+1:]
	}
	return ""
}

// TeamPipelineCreate is the body of an add; both fields are required.
type TeamPipelineCreate struct {
	PipelineID  string `json:"pipeline_id"`
	AccessLevel string `json:"access_level"`
}

type teamPipelineUpdate struct {
	AccessLevel string `json:"access_level"`
}

// List returns every pipeline a team has access to, across all pages.
func (s *TeamPipelinesService) List(ctx context.Context, teamID string) ([]TeamPipeline, error) {
	p, err := s.client.teamPath(teamID, "pipelines")
	if err != nil {
		return nil, err
	}
	return listAll[TeamPipeline](ctx, s.client, p, nil)
}

// Get returns a team's access to a pipeline, by the pipeline's UUID.
func (s *TeamPipelinesService) Get(ctx context.Context, teamID, pipelineID string) (*TeamPipeline, error) {
	list, err := s.client.teamPath(teamID, "pipelines")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, pipelineID)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, pipelineID, func(tp *TeamPipeline) []string {
		return []string{tp.PipelineID, tp.PipelineSlug()}
	})
}

// Create gives a team access to a pipeline (201) with "POST .../pipelines/", the documentation's form. The
// pair identifies the access, so a create whose answer was lost adopts it,
// if it was not there before the create was sent (pairCreate).
func (s *TeamPipelinesService) Create(ctx context.Context, teamID string, in TeamPipelineCreate) (*TeamPipeline, error) {
	p, err := s.client.teamPath(teamID, "pipelines")
	if err != nil {
		return nil, err
	}
	item, err := s.client.teamPath(teamID, "pipelines", in.PipelineID)
	if err != nil {
		return nil, err
	}
	// The find reads the pair itself: Get may answer from a listing fetched before the create.
	return createOrAdopt(ctx, s.client, p+"/", in, pairCreate[TeamPipeline](s.client, item, "team "+teamID+"'s access to pipeline "+in.PipelineID))
}

// Update changes a team's access level to a pipeline (PATCH).
func (s *TeamPipelinesService) Update(ctx context.Context, teamID, pipelineID, accessLevel string) (*TeamPipeline, error) {
	p, err := s.client.teamPath(teamID, "pipelines", pipelineID)
	if err != nil {
		return nil, err
	}
	return change[TeamPipeline](ctx, s.client, http.MethodPatch, p, teamPipelineUpdate{AccessLevel: accessLevel})
}

// Delete removes a team's access to a pipeline with "DELETE .../pipelines/{pipeline uuid}" (204): the
// documentation's path names no pipeline, and this is the form the service and go-buildkite use.
func (s *TeamPipelinesService) Delete(ctx context.Context, teamID, pipelineID string) error {
	p, err := s.client.teamPath(teamID, "pipelines", pipelineID)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

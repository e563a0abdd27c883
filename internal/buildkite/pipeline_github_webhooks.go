package buildkite

import (
	"context"
	"net/http"
)

// GitHubWebhooks is a pipeline's GitHub webhook processing switch (REST /pipelines/{slug}/github-webhooks, as
// the service answers). Only GitHub pipelines of organizations enrolled in expanded webhook triggers have it:
// for anything else every route answers 404.
type GitHubWebhooks struct {
	URL     string `json:"url"`
	Enabled bool   `json:"enabled"`
	// DisabledAt and DisabledBy (a user's name) are set while processing is off.
	DisabledAt *string `json:"disabled_at"`
	DisabledBy *string `json:"disabled_by"`
}

// GitHubWebhooks reads the switch of the pipeline with slug.
func (s *PipelinesService) GitHubWebhooks(ctx context.Context, slug string) (*GitHubWebhooks, error) {
	p, err := s.pipelinesPath(slug, "github-webhooks")
	if err != nil {
		return nil, err
	}
	return get[GitHubWebhooks](ctx, s.client, p, nil)
}

// SetGitHubWebhooks turns the switch on (PUT) or off (DELETE, which answers 200 with the state); both are
// idempotent, so repeatable.
func (s *PipelinesService) SetGitHubWebhooks(ctx context.Context, slug string, enabled bool) (*GitHubWebhooks, error) {
	p, err := s.pipelinesPath(slug, "github-webhooks")
	if err != nil {
		return nil, err
	}
	method := http.MethodDelete
	if enabled {
		method = http.MethodPut
	}
	return change[GitHubWebhooks](ctx, s.client, method, p, nil)
}

package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// PipelineSchedulesService manages the schedules of pipelines: builds created by a cronline.
type PipelineSchedulesService struct{ client *Client }

// PipelineSchedule is a schedule that creates builds of its pipeline when its cronline fires.
type PipelineSchedule struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	URL       string `json:"url"`
	Label     string `json:"label"`
	// Cronline is five crontab fields with an optional time zone after them, or a name such as @daily.
	Cronline string            `json:"cronline"`
	Message  *string           `json:"message"`
	Commit   string            `json:"commit"`
	Branch   string            `json:"branch"`
	Env      map[string]string `json:"env"`
	Enabled  bool              `json:"enabled"`
	// NextBuildAt is nil while the schedule is disabled.
	NextBuildAt   *time.Time              `json:"next_build_at"`
	FailedMessage *string                 `json:"failed_message"`
	FailedAt      *time.Time              `json:"failed_at"`
	CreatedAt     *time.Time              `json:"created_at"`
	CreatedBy     *User                   `json:"created_by"`
	Pipeline      *PipelineScheduleParent `json:"pipeline"`
}

// PipelineScheduleParent is the summary of its pipeline a schedule carries.
type PipelineScheduleParent struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// PipelineScheduleWrite is the body of a create or an update: the service requires Cronline on create,
// and leaves a nil field as it is. Env is sent as it is, so that an empty map clears the variables.
type PipelineScheduleWrite struct {
	Cronline string            `json:"cronline,omitempty"`
	Label    *string           `json:"label,omitempty"`
	Message  *string           `json:"message,omitempty"`
	Commit   *string           `json:"commit,omitempty"`
	Branch   *string           `json:"branch,omitempty"`
	Env      map[string]string `json:"env"`
	Enabled  *bool             `json:"enabled,omitempty"`
}

// schedulesPath builds "/v2/organizations/{org}/pipelines/{slug}/schedules/...".
func (s *PipelineSchedulesService) schedulesPath(pipelineSlug string, segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"pipelines", pipelineSlug, "schedules"}, segments...)...)
}

// List returns every schedule of the pipeline with the slug, across all pages.
func (s *PipelineSchedulesService) List(ctx context.Context, pipelineSlug string) ([]PipelineSchedule, error) {
	p, err := s.schedulesPath(pipelineSlug)
	if err != nil {
		return nil, err
	}
	return listAll[PipelineSchedule](ctx, s.client, p, nil)
}

// Get returns one schedule of a pipeline; a refresh of many answers from the pipeline's listing.
func (s *PipelineSchedulesService) Get(ctx context.Context, pipelineSlug, id string) (*PipelineSchedule, error) {
	list, err := s.schedulesPath(pipelineSlug)
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(sc *PipelineSchedule) []string { return []string{sc.ID} })
}

// Create creates a schedule (201). Nothing but its ID identifies a schedule, so when the answer is lost the
// one schedule of the same label and cronline that was not there before the request was sent (and that
// no other create returned) is taken for the one sent; with two or more, none is.
func (s *PipelineSchedulesService) Create(ctx context.Context, pipelineSlug string, in PipelineScheduleWrite) (*PipelineSchedule, error) {
	p, err := s.schedulesPath(pipelineSlug)
	if err != nil {
		return nil, err
	}
	label := ""
	if in.Label != nil {
		label = *in.Label
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[PipelineSchedule]{
		matching: func(ctx context.Context) ([]PipelineSchedule, error) {
			return listMatching(ctx, s.client, p, func(sc *PipelineSchedule) bool { return sc.Cronline == in.Cronline && sc.Label == label })
		},
		id: func(sc *PipelineSchedule) string { return sc.ID },
		describe: func(sc *PipelineSchedule) string {
			return fmt.Sprintf("schedule %q (%s, ID %s) of pipeline %s", sc.Label, sc.Cronline, sc.ID, pipelineSlug)
		},
	})
}

// Update changes a schedule with PATCH, the form go-buildkite sends.
func (s *PipelineSchedulesService) Update(ctx context.Context, pipelineSlug, id string, in PipelineScheduleWrite) (*PipelineSchedule, error) {
	p, err := s.schedulesPath(pipelineSlug, id)
	if err != nil {
		return nil, err
	}
	return change[PipelineSchedule](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a schedule (204).
func (s *PipelineSchedulesService) Delete(ctx context.Context, pipelineSlug, id string) error {
	p, err := s.schedulesPath(pipelineSlug, id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

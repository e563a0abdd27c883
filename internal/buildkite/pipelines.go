package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// PipelinesService manages pipelines, including archiving.
type PipelinesService struct{ client *Client }

// Pipeline is a pipeline as the REST reference shows it (https://buildkite.com/docs/apis/rest-api/pipelines).
type Pipeline struct {
	ID                              string            `json:"id"`
	GraphQLID                       string            `json:"graphql_id"`
	URL                             string            `json:"url"`
	WebURL                          string            `json:"web_url"`
	Name                            string            `json:"name"`
	Description                     *string           `json:"description"`
	Slug                            string            `json:"slug"`
	Repository                      string            `json:"repository"`
	ClusterID                       *string           `json:"cluster_id"`
	PipelineTemplateUUID            *string           `json:"pipeline_template_uuid"`
	BranchConfiguration             *string           `json:"branch_configuration"`
	DefaultBranch                   string            `json:"default_branch"`
	Provider                        PipelineProvider  `json:"provider"`
	SkipQueuedBranchBuilds          bool              `json:"skip_queued_branch_builds"`
	SkipQueuedBranchBuildsFilter    *string           `json:"skip_queued_branch_builds_filter"`
	CancelRunningBranchBuilds       bool              `json:"cancel_running_branch_builds"`
	CancelRunningBranchBuildsFilter *string           `json:"cancel_running_branch_builds_filter"`
	AllowRebuilds                   bool              `json:"allow_rebuilds"`
	BuildsURL                       string            `json:"builds_url"`
	BadgeURL                        string            `json:"badge_url"`
	CreatedBy                       *User             `json:"created_by"`
	CreatedAt                       *Timestamp        `json:"created_at"`
	ArchivedAt                      *Timestamp        `json:"archived_at"`
	Env                             map[string]string `json:"env"`
	Visibility                      string            `json:"visibility"`
	Tags                            []string          `json:"tags"`
	// Configuration is the YAML of a YAML pipeline; nil for a visual-step pipeline.
	Configuration *string `json:"configuration"`
	// Steps are kept undecoded: their shape depends on the step type and the provider only shows YAML.
	Steps []json.RawMessage `json:"steps"`

	// The step timeouts in minutes (https://buildkite.com/docs/apis/rest-api/pipelines); nil when the pipeline
	// has none.
	DefaultCommandStepTimeout *int64 `json:"default_command_step_timeout"`
	MaximumCommandStepTimeout *int64 `json:"maximum_command_step_timeout"`

	// CloneMirrorURL is the mirror agents clone from; nil when none is set (the key is left out while the
	// organization lacks the clone-mirror feature). The pipeline's emoji and color are in no REST answer.
	CloneMirrorURL *string `json:"clone_mirror_url"`
}

var _ identified = (*Pipeline)(nil)

func (x *Pipeline) identity() (string, string) { return "id", x.ID }

// PipelineProvider is the source provider of a pipeline's repository.
type PipelineProvider struct {
	ID string `json:"id"`
	// WebhookURL is "" when the caller lacks edit permission on the pipeline.
	WebhookURL string `json:"webhook_url"`
	// Settings holds booleans and strings keyed by setting name; which keys exist depends on the provider.
	Settings map[string]any `json:"settings"`
}

// Archived reports whether the pipeline is archived (read-only).
func (p *Pipeline) Archived() bool { return p.ArchivedAt != nil }

// Timestamp reads both forms the service uses for times: ISO 8601 and, for a pipeline's created_at in some
// responses, "YYYY-MM-DD HH:MM:SS UTC".
type Timestamp struct{ time.Time }

// timestampLayouts are tried in order.
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05 MST", "2006-01-02 15:04:05 -0700"}

// UnmarshalJSON accepts a string in any of timestampLayouts.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	for _, layout := range timestampLayouts {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v.UTC()
			return nil
		}
	}
	return fmt.Errorf("timestamp %q is in no known form", s)
}

// MarshalJSON writes RFC 3339.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.UTC().Format(time.RFC3339Nano))
}

// PipelineListOptions filters a listing; the service matches each as a case-insensitive substring.
type PipelineListOptions struct {
	Name       string
	Repository string
}

// PipelineCreate is the body of a create (the YAML form, or a template). Nil fields are left to the service.
type PipelineCreate struct {
	Name                            string         `json:"name"`
	Repository                      string         `json:"repository"`
	Slug                            *string        `json:"slug,omitempty"`
	ClusterID                       *string        `json:"cluster_id,omitempty"`
	Configuration                   *string        `json:"configuration,omitempty"`
	PipelineTemplateUUID            *string        `json:"pipeline_template_uuid,omitempty"`
	Description                     *string        `json:"description,omitempty"`
	DefaultBranch                   *string        `json:"default_branch,omitempty"`
	BranchConfiguration             *string        `json:"branch_configuration,omitempty"`
	SkipQueuedBranchBuilds          *bool          `json:"skip_queued_branch_builds,omitempty"`
	SkipQueuedBranchBuildsFilter    *string        `json:"skip_queued_branch_builds_filter,omitempty"`
	CancelRunningBranchBuilds       *bool          `json:"cancel_running_branch_builds,omitempty"`
	CancelRunningBranchBuildsFilter *string        `json:"cancel_running_branch_builds_filter,omitempty"`
	AllowRebuilds                   *bool          `json:"allow_rebuilds,omitempty"`
	Visibility                      *string        `json:"visibility,omitempty"`
	Tags                            []string       `json:"tags,omitempty"`
	ProviderSettings                map[string]any `json:"provider_settings,omitempty"`
	// Teams maps team UUIDs to an access level (read_only, build_and_read, manage_build_and_read).
	Teams map[string]string `json:"teams,omitempty"`

	DefaultCommandStepTimeout *int64 `json:"default_command_step_timeout,omitempty"`
	MaximumCommandStepTimeout *int64 `json:"maximum_command_step_timeout,omitempty"`

	// Emoji (":rocket:"), Color ("#FF5733") and CloneMirrorURL, documented on the YAML create; REST answers
	// carry only clone_mirror_url.
	Emoji          *string `json:"emoji,omitempty"`
	Color          *string `json:"color,omitempty"`
	CloneMirrorURL *string `json:"clone_mirror_url,omitempty"`
}

// PipelineUpdate is the body of a PATCH. Only non-nil (or set) fields are sent, so an update carries only
// what changed (visibility needs more rights than the other fields). The Optional fields can also be
// Cleared, sent as null: the service's way to take a pipeline out of its cluster or off its template, and to
// remove a step timeout, the emoji, the color or the clone mirror.
type PipelineUpdate struct {
	Name                            *string          `json:"name,omitempty"`
	Slug                            *string          `json:"slug,omitempty"`
	Repository                      *string          `json:"repository,omitempty"`
	ClusterID                       Optional[string] `json:"cluster_id,omitzero"`
	Configuration                   *string          `json:"configuration,omitempty"`
	PipelineTemplateUUID            Optional[string] `json:"pipeline_template_uuid,omitzero"`
	Description                     *string          `json:"description,omitempty"`
	DefaultBranch                   *string          `json:"default_branch,omitempty"`
	BranchConfiguration             *string          `json:"branch_configuration,omitempty"`
	SkipQueuedBranchBuilds          *bool            `json:"skip_queued_branch_builds,omitempty"`
	SkipQueuedBranchBuildsFilter    *string          `json:"skip_queued_branch_builds_filter,omitempty"`
	CancelRunningBranchBuilds       *bool            `json:"cancel_running_branch_builds,omitempty"`
	CancelRunningBranchBuildsFilter *string          `json:"cancel_running_branch_builds_filter,omitempty"`
	AllowRebuilds                   *bool            `json:"allow_rebuilds,omitempty"`
	Visibility                      *string          `json:"visibility,omitempty"`
	Tags                            *[]string        `json:"tags,omitempty"`
	ProviderSettings                map[string]any   `json:"provider_settings,omitempty"`
	DefaultCommandStepTimeout       Optional[int64]  `json:"default_command_step_timeout,omitzero"`
	MaximumCommandStepTimeout       Optional[int64]  `json:"maximum_command_step_timeout,omitzero"`
	Emoji                           Optional[string] `json:"emoji,omitzero"`
	Color                           Optional[string] `json:"color,omitzero"`
	CloneMirrorURL                  Optional[string] `json:"clone_mirror_url,omitzero"`
}

// IsZero reports whether the update changes nothing: it sends nothing.
func (u PipelineUpdate) IsZero() bool {
	b, err := json.Marshal(u)
	return err == nil && string(b) == "{}"
}

// pipelinesPath is the collection's path, with optional segments below one pipeline.
func (s *PipelinesService) pipelinesPath(segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"pipelines"}, segments...)...)
}

// List returns the organization's pipelines, across all pages, filtered by opts when given.
func (s *PipelinesService) List(ctx context.Context, opts *PipelineListOptions) ([]Pipeline, error) {
	p, err := s.pipelinesPath()
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if opts != nil {
		if opts.Name != "" {
			q.Set("name", opts.Name)
		}
		if opts.Repository != "" {
			q.Set("repository", opts.Repository)
		}
	}
	return listAll[Pipeline](ctx, s.client, p, q)
}

// Get returns one pipeline by slug.
func (s *PipelinesService) Get(ctx context.Context, slug string) (*Pipeline, error) {
	list, err := s.pipelinesPath()
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, slug)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, slug, func(p *Pipeline) []string { return []string{p.Slug, p.ID} })
}

// Find returns the pipeline with UUID id, which the caller last knew by slug. The API reads pipelines by
// slug only, and a rename changes the slug: when slug no longer names the pipeline (unknown, or now
// another pipeline's), the listing is searched for id. It answers an *Error with 404 when the pipeline
// is gone.
func (s *PipelinesService) Find(ctx context.Context, id, slug string) (*Pipeline, error) {
	if slug != "" {
		p, err := s.Get(ctx, slug)
		switch {
		case err == nil && (id == "" || p.ID == id):
			return p, nil
		case err != nil && !IsNotFound(err):
			return nil, err
		}
	}
	if id == "" {
		return nil, notFound(http.MethodGet, slug, "pipeline")
	}
	all, err := s.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, notFound(http.MethodGet, id, "pipeline")
}

// notFound is the 404 a lookup answers when a search, not one request, found nothing.
func notFound(method, key, kind string) *Error {
	return &Error{StatusCode: http.StatusNotFound, Method: method, Path: key, Message: "No " + kind + " found"}
}

// Create creates a pipeline. A pipeline is identified by its slug (given, or derived from the name) and
// its name, both unique: after an unknown outcome, the one with the same name or slug is adopted if it was
// not there before the create was sent.
func (s *PipelinesService) Create(ctx context.Context, in PipelineCreate) (*Pipeline, error) {
	p, err := s.pipelinesPath()
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Pipeline]{
		matching: func(ctx context.Context) ([]Pipeline, error) {
			all, err := s.List(ctx, &PipelineListOptions{Name: in.Name})
			return keep(all, err, func(pl *Pipeline) bool {
				return pl.Name == in.Name || (in.Slug != nil && pl.Slug == *in.Slug)
			})
		},
		id:       func(pl *Pipeline) string { return pl.ID },
		describe: func(pl *Pipeline) string { return fmt.Sprintf("pipeline %q (slug %s, ID %s)", pl.Name, pl.Slug, pl.ID) },
	})
}

// Update changes a pipeline with PATCH, the form the documentation shows.
func (s *PipelinesService) Update(ctx context.Context, slug string, in PipelineUpdate) (*Pipeline, error) {
	p, err := s.pipelinesPath(slug)
	if err != nil {
		return nil, err
	}
	return change[Pipeline](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a pipeline and its builds.
func (s *PipelinesService) Delete(ctx context.Context, slug string) error {
	p, err := s.pipelinesPath(slug)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

// Archive makes a pipeline read-only; archiving an archived pipeline changes nothing.
func (s *PipelinesService) Archive(ctx context.Context, slug string) (*Pipeline, error) {
	p, err := s.pipelinesPath(slug, "archive")
	if err != nil {
		return nil, err
	}
	return change[Pipeline](ctx, s.client, http.MethodPost, p, nil)
}

// Unarchive makes an archived pipeline editable again.
func (s *PipelinesService) Unarchive(ctx context.Context, slug string) (*Pipeline, error) {
	p, err := s.pipelinesPath(slug, "unarchive")
	if err != nil {
		return nil, err
	}
	return change[Pipeline](ctx, s.client, http.MethodPost, p, nil)
}

// GrantTeam gives a team access to a pipeline (https://buildkite.com/docs/apis/rest-api/teams). A
// pipeline's default team is the pipeline's concern, so the pipeline service carries the two calls it needs
// rather than the whole team API.
// Granting access a team already has is refused by the service; the level is then set with a PATCH.
func (s *PipelinesService) GrantTeam(ctx context.Context, teamID, pipelineID, accessLevel string) error {
	list, err := s.client.orgPath("teams", teamID, "pipelines")
	if err != nil {
		return err
	}
	item, err := joinPath(list, pipelineID)
	if err != nil {
		return err
	}
	// The association is identified by its pair, so a lost create is found by reading it.
	lc := pairCreate[TeamPipeline](s.client, item, "team "+teamID+"'s access to pipeline "+pipelineID)
	body := map[string]string{"pipeline_id": pipelineID, "access_level": accessLevel}
	_, err = createOrAdopt(ctx, s.client, list+"/", body, lc)
	if err == nil || !IsValidation(err) {
		return err
	}
	if existing, ferr := lc.matching(ctx); ferr != nil || len(existing) == 0 {
		return err // not there: the 422 was about something else
	}
	_, err = change[TeamPipeline](ctx, s.client, http.MethodPatch, item, teamPipelineUpdate{AccessLevel: accessLevel})
	return err
}

// RevokeTeam removes a team's access to a pipeline; access already gone is not an error.
func (s *PipelinesService) RevokeTeam(ctx context.Context, teamID, pipelineID string) error {
	p, err := s.client.orgPath("teams", teamID, "pipelines", pipelineID)
	if err != nil {
		return err
	}
	if err := s.client.remove(ctx, p); err != nil && !IsNotFound(err) {
		return err
	}
	return nil
}

// DefaultSteps is the configuration a pipeline gets when it is given neither steps nor a template: one
// step that uploads the pipeline file from the repository. The official provider uses the same text, so
// configurations written for it plan the same.
const DefaultSteps = "steps:\n- label: ':pipeline: Pipeline Upload'\n  command: buildkite-agent pipeline upload"

// uuidOf is the UUID of the pipeline ref (a UUID or slug, as rules accept them) names, or "" when none
// does (or ref is empty). A slug costs one read.
func (s *PipelinesService) uuidOf(ctx context.Context, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	p, err := s.Get(ctx, ref)
	if IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return p.ID, nil
}

// RefersTo reports whether ref, a pipeline UUID or slug as rules accept them, names the pipeline with
// UUID id. A slug costs one read; a slug no pipeline has refers to nothing.
func (s *PipelinesService) RefersTo(ctx context.Context, ref, id string) (bool, error) {
	if ref == id {
		return true, nil
	}
	if ref == "" || id == "" {
		return false, nil
	}
	p, err := s.Get(ctx, ref)
	if IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return p.ID == id, nil
}

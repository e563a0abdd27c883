package buildkite

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// BuildsService reads builds and starts them.
type BuildsService struct{ client *Client }

// Build is one run of a pipeline (https://buildkite.com/docs/apis/rest-api/builds), with the fields the
// provider shows.
type Build struct {
	ID           string            `json:"id"`
	GraphQLID    string            `json:"graphql_id"`
	URL          string            `json:"url"`
	WebURL       string            `json:"web_url"`
	Number       int64             `json:"number"`
	State        string            `json:"state"`
	CancelReason *string           `json:"cancel_reason"`
	Blocked      bool              `json:"blocked"`
	Message      string            `json:"message"`
	Commit       string            `json:"commit"`
	Branch       string            `json:"branch"`
	Source       string            `json:"source"`
	Creator      *User             `json:"creator"`
	Jobs         []Job             `json:"jobs"`
	CreatedAt    *time.Time        `json:"created_at"`
	ScheduledAt  *time.Time        `json:"scheduled_at"`
	StartedAt    *time.Time        `json:"started_at"`
	FinishedAt   *time.Time        `json:"finished_at"`
	MetaData     map[string]string `json:"meta_data"`
	Pipeline     *BuildPipeline    `json:"pipeline"`
}

var _ identified = (*Build)(nil)

func (x *Build) identity() (string, string) { return "id", x.ID }

// BuildPipeline is the part of the embedded pipeline that says which pipeline a build belongs to.
type BuildPipeline struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// Job is one execution of a step of a build.
type Job struct {
	ID              string     `json:"id"`
	GraphQLID       string     `json:"graphql_id"`
	Type            string     `json:"type"`
	Name            *string    `json:"name"`
	StepKey         *string    `json:"step_key"`
	AgentQueryRules []string   `json:"agent_query_rules"`
	State           string     `json:"state"`
	WebURL          string     `json:"web_url"`
	Command         string     `json:"command"`
	SoftFailed      bool       `json:"soft_failed"`
	ExitStatus      *int64     `json:"exit_status"`
	CreatedAt       *time.Time `json:"created_at"`
	ScheduledAt     *time.Time `json:"scheduled_at"`
	RunnableAt      *time.Time `json:"runnable_at"`
	StartedAt       *time.Time `json:"started_at"`
	FinishedAt      *time.Time `json:"finished_at"`
	Retried         bool       `json:"retried"`
	RetriesCount    int64      `json:"retries_count"`
	ClusterID       *string    `json:"cluster_id"`
	ClusterQueueID  *string    `json:"cluster_queue_id"`
}

// BuildFilter is the query of the build lists; zero fields filter nothing.
type BuildFilter struct {
	Branches     []string
	Commits      []string // full commit identifiers only: the service does not match prefixes
	CreatedFrom  *time.Time
	CreatedTo    *time.Time
	FinishedFrom *time.Time
	Creator      string // the creating user's UUID
	// States are build states (https://buildkite.com/docs/apis/rest-api/builds); "finished" matches
	// passed, failed, blocked and canceled.
	States             []string
	MetaData           map[string]string
	IncludeRetriedJobs bool
}

// query encodes f in the array form the documentation shows (branch[]=a&branch[]=b).
func (f BuildFilter) query() url.Values {
	q := url.Values{}
	for _, list := range []struct {
		name   string
		values []string
	}{{"branch[]", f.Branches}, {"commit[]", f.Commits}, {"state[]", f.States}} {
		for _, v := range list.values {
			q.Add(list.name, v)
		}
	}
	for name, t := range map[string]*time.Time{"created_from": f.CreatedFrom, "created_to": f.CreatedTo, "finished_from": f.FinishedFrom} {
		if t != nil {
			q.Set(name, t.UTC().Format(time.RFC3339Nano))
		}
	}
	if f.Creator != "" {
		q.Set("creator", f.Creator)
	}
	keys := make([]string, 0, len(f.MetaData))
	for k := range f.MetaData {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		q.Set("meta_data["+k+"]", f.MetaData[k])
	}
	if f.IncludeRetriedJobs {
		q.Set("include_retried_jobs", "true")
	}
	return q
}

// ListOrganization returns up to limit builds of the organization, newest first.
func (s *BuildsService) ListOrganization(ctx context.Context, filter BuildFilter, limit int) ([]Build, error) {
	p, err := s.client.orgPath("builds")
	if err != nil {
		return nil, err
	}
	return listUpTo[Build](ctx, s.client, p, filter.query(), limit)
}

// ListPipeline returns up to limit builds of one pipeline, newest first.
func (s *BuildsService) ListPipeline(ctx context.Context, pipelineSlug string, filter BuildFilter, limit int) ([]Build, error) {
	p, err := s.client.orgPath("pipelines", pipelineSlug, "builds")
	if err != nil {
		return nil, err
	}
	return listUpTo[Build](ctx, s.client, p, filter.query(), limit)
}

// Get returns one build of a pipeline by its number (not its ID).
func (s *BuildsService) Get(ctx context.Context, pipelineSlug string, number int64, includeRetriedJobs bool) (*Build, error) {
	p, err := s.client.orgPath("pipelines", pipelineSlug, "builds", strconv.FormatInt(number, 10))
	if err != nil {
		return nil, err
	}
	var q url.Values
	if includeRetriedJobs {
		q = url.Values{"include_retried_jobs": {"true"}}
	}
	return get[Build](ctx, s.client, p, q)
}

// BuildCreate is the body of a build create; commit and branch are required.
type BuildCreate struct {
	Commit   string            `json:"commit"`
	Branch   string            `json:"branch"`
	Message  string            `json:"message,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	MetaData map[string]string `json:"meta_data,omitempty"`
}

// Create starts a build of a pipeline. It is not repeatable: a second request would start a second build.
func (s *BuildsService) Create(ctx context.Context, pipelineSlug string, in BuildCreate) (*Build, error) {
	p, err := s.client.orgPath("pipelines", pipelineSlug, "builds")
	if err != nil {
		return nil, err
	}
	return create[Build](ctx, s.client, p, in)
}

// listUpTo reads pages of a list until it has limit items or there are no more, asking for pages no
// larger than it needs: a history of builds is never walked whole. A limit of 0 or less reads every page.
func listUpTo[T any](ctx context.Context, c *Client, path string, query url.Values, limit int) ([]T, error) {
	if limit <= 0 {
		return listAll[T](ctx, c, path, query)
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = append([]string(nil), v...)
	}
	q.Set("per_page", strconv.Itoa(min(limit, 100)))
	next, err := endpoint(c.baseURL, path, q)
	if err != nil {
		return nil, err
	}
	all := []T{}
	for next != nil && len(all) < limit {
		var items []T
		h, err := c.do(ctx, call{method: http.MethodGet, out: &items, repeatable: true, holds: holdsList}, next)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			break
		}
		all = append(all, items...)
		if next, err = c.nextPage(next, h); err != nil {
			return nil, err
		}
	}
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

package buildkite

import (
	"context"
	"strings"
	"sync"
	"time"
)

// A pipeline's emoji and color: REST takes them on create and update but never shows them, so they are read
// back through GraphQL (Buildkite's GraphQL schema, Pipeline.emoji and Pipeline.color). A refresh reads many
// pipelines at once, so the reads share the organization's GraphQL pipeline listing, one request per page of
// 100, as readItem shares REST listings (listcache.go): a read looks in the pages fetched so far; while fewer
// pages were fetched than reads were made, it fetches the next page; otherwise (or once the listing is
// complete) it asks node(id:) for its pipeline alone. A refresh of R pipelines the listing holds, on P pages,
// costs min(R, P) requests; at worst (pipelines the listing lacks) min(R, P) + R. The pages are kept for
// ListReadTTL (without it every read asks node(id:)), and any REST write to a pipeline drops them.

// PipelineLooks is what GraphQL shows of a pipeline's appearance; nil is none.
type PipelineLooks struct {
	Emoji *string `json:"emoji"`
	Color *string `json:"color"`
}

// looksPageSize is how many pipelines one page of the GraphQL listing holds.
const looksPageSize = 100

var (
	opListPipelineLooks = queryFile("listPipelineLooks")
	opGetPipelineLooks  = queryFile("getPipelineLooks")
)

// listPipelineLooksAnswer is the data of listPipelineLooks's answer.
type listPipelineLooksAnswer struct {
	Organization *struct {
		Pipelines struct {
			Edges []struct {
				Node *pipelineLooksNode `json:"node"`
			} `json:"edges"`
			PageInfo struct {
				HasNextPage bool   `json:"hasNextPage"`
				EndCursor   string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"pipelines"`
	} `json:"organization"`
}

// getPipelineLooksAnswer is the data of getPipelineLooks's answer.
type getPipelineLooksAnswer struct {
	Node *struct {
		Typename string `json:"__typename"`
		pipelineLooksNode
	} `json:"node"`
}

// looksCache is what the reads of pipelines' looks know of the GraphQL listing.
type looksCache struct {
	mu      sync.Mutex
	fetched time.Time                // when the first page was fetched; zero: nothing kept
	byUUID  map[string]PipelineLooks // the pipelines of the pages fetched
	pages   int                      // pages fetched
	reads   int                      // lookups since the first page
	after   string                   // the cursor of the next page
	done    bool                     // every page is fetched
}

// drop forgets what was fetched: a write may have changed it.
func (l *looksCache) drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reset()
}

// reset forgets every page. Called with mu held.
func (l *looksCache) reset() {
	l.fetched, l.byUUID, l.pages, l.reads, l.after, l.done = time.Time{}, nil, 0, 0, "", false
}

type pipelineLooksNode struct {
	UUID string `json:"uuid"`
	PipelineLooks
}

// Looks returns the emoji and color of the pipeline whose UUID is uuid, and whose GraphQL ID is graphqlID.
// A pipeline GraphQL does not know is a not-found error (IsNotFound).
func (s *PipelinesService) Looks(ctx context.Context, uuid, graphqlID string) (*PipelineLooks, error) {
	c := s.client
	if c.graphqlURL == nil {
		return nil, ErrNoGraphQLURL
	}
	uuid = strings.ToLower(uuid)
	if c.listTTL > 0 {
		if found, ok, err := c.looks.lookup(ctx, c, uuid); err != nil || ok {
			return found, err
		}
	}
	out, err := gqlQuery[getPipelineLooksAnswer](ctx, c, opGetPipelineLooks, map[string]any{"id": graphqlID})
	if err != nil {
		return nil, err
	}
	if out.Node == nil || out.Node.Typename != "Pipeline" {
		return nil, c.graphQLNotFound(opGetPipelineLooks.name, "pipeline "+uuid)
	}
	return &out.Node.PipelineLooks, nil
}

// lookup answers from the pages fetched, fetching the next ones while fewer pages than reads were fetched;
// ok is false when the caller must read the pipeline alone.
func (l *looksCache) lookup(ctx context.Context, c *Client, uuid string) (*PipelineLooks, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.fetched.IsZero() && time.Since(l.fetched) > c.listTTL {
		l.reset()
	}
	l.reads++
	for {
		if found, ok := l.byUUID[uuid]; ok {
			return &found, true, nil
		}
		if l.done || l.pages >= l.reads {
			return nil, false, nil
		}
		if err := l.fetchPage(ctx, c); err != nil {
			return nil, false, err
		}
	}
}

// fetchPage fetches the next page of the organization's pipelines. Called with mu held.
func (l *looksCache) fetchPage(ctx context.Context, c *Client) error {
	vars := map[string]any{"slug": c.org, "first": looksPageSize}
	if l.after != "" {
		vars["after"] = l.after
	}
	out, err := gqlQuery[listPipelineLooksAnswer](ctx, c, opListPipelineLooks, vars)
	if err != nil {
		return err
	}
	if out.Organization == nil {
		return c.graphQLNotFound(opListPipelineLooks.name, "organization "+c.org)
	}
	if l.byUUID == nil {
		l.byUUID, l.fetched = map[string]PipelineLooks{}, time.Now()
	}
	for _, e := range out.Organization.Pipelines.Edges {
		if e.Node != nil {
			l.byUUID[strings.ToLower(e.Node.UUID)] = e.Node.PipelineLooks
		}
	}
	l.pages++
	page := out.Organization.Pipelines.PageInfo
	l.after, l.done = page.EndCursor, !page.HasNextPage || page.EndCursor == ""
	return nil
}

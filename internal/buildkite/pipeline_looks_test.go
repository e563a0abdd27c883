package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// looksServer answers the GraphQL listing of n pipelines (uuid-<i>, emoji :e<i>:) in pages, and node(id:)
// for one of them, counting each kind of request.
type looksServer struct {
	url          string
	pages, nodes atomic.Int32
}

func newLooksServer(t *testing.T, n int) *looksServer {
	s := &looksServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("decoding: %v", err)
		}
		node := func(i int) map[string]any {
			return map[string]any{"__typename": "Pipeline", "uuid": fmt.Sprintf("uuid-%d", i), "emoji": fmt.Sprintf(":e%d:", i), "color": nil}
		}
		var data any
		switch req.OperationName {
		case "listPipelineLooks":
			s.pages.Add(1)
			start, _ := strconv.Atoi(fmt.Sprint(req.Variables["after"]))
			first := int(req.Variables["first"].(float64))
			var edges []any
			for i := start; i < n && i < start+first; i++ {
				edges = append(edges, map[string]any{"node": node(i)})
			}
			end := start + len(edges)
			data = map[string]any{"organization": map[string]any{"pipelines": map[string]any{
				"edges": edges, "pageInfo": map[string]any{"hasNextPage": end < n, "endCursor": strconv.Itoa(end)}}}}
		case "getPipelineLooks":
			s.nodes.Add(1)
			i, _ := strconv.Atoi(fmt.Sprint(req.Variables["id"]))
			data = map[string]any{"node": node(i)}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// TestPipelineLooks_batched: reading the looks of every pipeline costs one request per page of the
// listing, never one per pipeline; reading one of many costs a page and a node(id:); without ListReadTTL
// each read asks node(id:).
func TestPipelineLooks_batched(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name         string
		total, read  int
		ttl          time.Duration
		pages, nodes int32
	}{
		{"every pipeline of 250", 250, 250, time.Minute, 3, 0},
		{"one of 250, on the last page", 250, 1, time.Minute, 1, 1},
		{"no TTL", 250, 5, 0, 0, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newLooksServer(t, tc.total)
			c := newGraphQLClient(t, "http://rest.invalid", s.url, func(c *Config) { c.ListReadTTL = tc.ttl })
			for i := tc.total - tc.read; i < tc.total; i++ {
				l, err := c.Pipelines.Looks(ctx, fmt.Sprintf("uuid-%d", i), strconv.Itoa(i))
				if err != nil {
					t.Fatal(err)
				}
				if want := fmt.Sprintf(":e%d:", i); l.Emoji == nil || *l.Emoji != want || l.Color != nil {
					t.Fatalf("pipeline %d: looks %+v, want emoji %s and no color", i, l, want)
				}
			}
			if s.pages.Load() != tc.pages || s.nodes.Load() != tc.nodes {
				t.Errorf("%d page requests and %d node requests, want %d and %d", s.pages.Load(), s.nodes.Load(), tc.pages, tc.nodes)
			}
		})
	}
}

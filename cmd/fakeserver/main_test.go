package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestRunServesAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--org", "demo", "--token", "demo-token", "--quiet",
			"--rate-limit", "10"}, outW)
		_ = outW.Close()
	}()

	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v", err)
	}
	const prefix = "fakeserver listening on "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("first line %q", line)
	}
	base := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	if strings.HasSuffix(base, ":0") || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("base URL %q", base)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }() // nothing more is expected; never block the server

	req, _ := http.NewRequest(http.MethodPost, base+"/v2/organizations/demo/clusters", strings.NewReader(`{"name":"hand"}`))
	req.Header.Set("Authorization", "Bearer demo-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cluster map[string]any
	err = json.NewDecoder(resp.Body).Decode(&cluster)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated || cluster["name"] != "hand" {
		t.Fatalf("create: %d %v %v", resp.StatusCode, cluster, err)
	}
	if got := resp.Header.Get("RateLimit-Limit"); got != "10" {
		t.Fatalf("RateLimit-Limit %q, want 10", got)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		t.Fatal("still listening after shutdown")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--org", ""}, {"--listen", "not an address"}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

func TestBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"0.0.0.0:80":     "http://127.0.0.1:80",
		"[::]:9000":      "http://127.0.0.1:9000",
		"[::1]:9000":     "http://[::1]:9000",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := baseURL(tcp); got != want {
			t.Errorf("baseURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	opts, listen, err := parseFlags([]string{"--quiet"}, io.Discard)
	if err != nil || listen != "127.0.0.1:8080" || !opts.DisableTestRoutes || opts.Faults.ServerErrors != 0 || opts.Logf != nil {
		t.Fatalf("defaults: %+v %q %v", opts, listen, err)
	}
	opts, _, err = parseFlags([]string{"--test-routes", "--faults", "5xx=0.2,429=0.2,latency=20ms,drop=0.1,seed=42",
		"--rate-limit", "5", "--rate-limit-window", "10s", "--listen", "127.0.0.1:0"}, io.Discard)
	if err != nil || opts.DisableTestRoutes || opts.Faults.ServerErrors != 0.2 || opts.Faults.RateLimited != 0.2 ||
		opts.Faults.Latency != 20*time.Millisecond || opts.Faults.DropCreates != 0.1 || opts.Faults.Seed != 42 ||
		opts.RateLimit != 5 || opts.RateLimitWindow != 10*time.Second || opts.Logf == nil {
		t.Fatalf("flags: %+v %v", opts, err)
	}
	if opts.NoCloneMirror || opts.NoExpandedWebhookTriggers || opts.NoHostedAgents || opts.AgentImageBuildTime != fakeserver.DefaultAgentImageBuildTime {
		t.Fatalf("features off by default: %+v", opts)
	}
	if opts.GraphQLBudget != 0 || opts.GraphQLBudgetWindow != 5*time.Minute {
		t.Fatalf("GraphQL budget off by default, with the service's window: %+v", opts)
	}
	if opts, _, err = parseFlags([]string{"--graphql-budget", "20000", "--graphql-budget-window", "1m"}, io.Discard); err != nil ||
		opts.GraphQLBudget != 20000 || opts.GraphQLBudgetWindow != time.Minute {
		t.Fatalf("GraphQL budget flags: %+v %v", opts, err)
	}
	if opts, _, err = parseFlags([]string{"--no-clone-mirror", "--no-expanded-webhook-triggers", "--no-hosted-agents", "--agent-image-build-time", "30s"}, io.Discard); err != nil ||
		!opts.NoCloneMirror || !opts.NoExpandedWebhookTriggers || !opts.NoHostedAgents || opts.AgentImageBuildTime != 30*time.Second {
		t.Fatalf("feature flags: %+v %v", opts, err)
	}
	opts, _, err = parseFlags([]string{"--quiet", "--faults", "aim=POST /v2/organizations/{org}/clusters drop_before times=1,aim=ruleCreate errors_with_data"}, io.Discard)
	wantAimed := []fakeserver.AimedFault{{Route: "POST /v2/organizations/{org}/clusters", Kind: fakeserver.FaultDropBefore, Times: 1},
		{Operation: "ruleCreate", Kind: fakeserver.FaultErrorsWithData}}
	if err != nil || !slices.Equal(opts.Faults.Aimed, wantAimed) {
		t.Fatalf("--faults aim=: %+v %v", opts.Faults.Aimed, err)
	}
	for _, args := range [][]string{{"--faults", "5xx=2"}, {"--faults", "nope=1"}, {"--test-routes=maybe"}, {"--faults", "aim=POST /v2/x null_data"}} {
		if _, _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) succeeded", args)
		}
	}
}

func TestUsageNamesEveryFlag(t *testing.T) {
	var out strings.Builder
	if _, _, err := parseFlags([]string{"--help"}, &out); err == nil {
		t.Fatal("--help did not stop")
	}
	for _, want := range []string{"Usage: fakeserver", "/_fake/", "-listen", "-org", "-token", "-rate-limit ",
		"-rate-limit-window", "-quiet", "-fixtures", "-test-routes", "-faults", "latency=20ms", "-state-file",
		"-no-clone-mirror", "-no-expanded-webhook-triggers", "-graphql-budget ", "-graphql-budget-window",
		"-no-hosted-agents", "-agent-image-build-time"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTestRoutesFlag(t *testing.T) {
	for _, on := range []bool{false, true} {
		opts, _, err := parseFlags(map[bool][]string{false: {"--quiet"}, true: {"--quiet", "--test-routes"}}[on], io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(fakeserver.New(opts))
		req, _ := http.NewRequest(http.MethodPut, ts.URL+"/_fake/organizations/demo/pipelines/nope/builds/1", strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		_ = resp.Body.Close()
		ts.Close()
		// Off: the router's "Not Found"; on: the handler's own answer.
		want := map[bool]string{false: "Not Found", true: "No pipeline found"}[on]
		if resp.StatusCode != http.StatusNotFound || body["message"] != want {
			t.Errorf("--test-routes=%v: %d %v, want 404 %q", on, resp.StatusCode, body, want)
		}
	}
}

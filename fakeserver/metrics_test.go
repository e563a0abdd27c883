package fakeserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// metricsAnswer is the decoded metrics object.
type metricsAnswer struct {
	Agents struct {
		agentCounts
		Queues map[string]agentCounts `json:"queues"`
	} `json:"agents"`
	Jobs struct {
		jobCounts
		Queues map[string]jobCounts `json:"queues"`
	} `json:"jobs"`
	Organization struct {
		Slug string `json:"slug"`
	} `json:"organization"`
	Cluster *struct {
		Name string `json:"name"`
	} `json:"cluster"`
}

// getMetrics asks srv for path with the Authorization header auth from remoteAddr, directly through
// ServeHTTP so the remote address can be chosen.
func getMetrics(t *testing.T, srv *Server, path, auth, remoteAddr string) (int, metricsAnswer, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if remoteAddr != "" {
		req.RemoteAddr = remoteAddr
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var m metricsAnswer
	var raw map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatalf("body %q: %v", rec.Body.Bytes(), err)
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m, raw
}

// seedMetrics gives acme an agent token, agents and jobs in and out of the cluster "Platform".
func seedMetrics(t *testing.T, st *Store) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.AddAgentToken("acme", "agent-token"))
	for _, a := range []AgentFixture{
		{Org: "acme", Name: "linux-1", Queue: "linux", Cluster: "Platform", State: "busy"},
		{Org: "acme", Name: "linux-2", Queue: "linux", Cluster: "Platform"},
		{Org: "acme", Name: "legacy", State: "idle"},
		{Org: "acme", Name: "legacy-busy", State: "busy"},
	} {
		_, err := st.AddAgent(a)
		must(err)
	}
	for _, j := range []QueueJobsFixture{
		{Org: "acme", Queue: "linux", Cluster: "Platform", State: "running", Count: 1},
		{Org: "acme", Queue: "linux", Cluster: "Platform", State: "scheduled", Count: 4},
		{Org: "acme", State: "waiting", Count: 2},
	} {
		must(st.SetQueueJobs(j))
	}
}

func TestMetricsOrganizationToken(t *testing.T) {
	srv := New(Options{})
	seedMetrics(t, srv.Store())
	srv.Store().AddOrg("other", "")
	if _, err := srv.Store().AddAgent(AgentFixture{Org: "other", Name: "elsewhere"}); err != nil {
		t.Fatal(err)
	}

	status, m, raw := getMetrics(t, srv, "/v3/metrics", "Token agent-token", "")
	if status != http.StatusOK {
		t.Fatalf("status %d %v", status, raw)
	}
	if _, ok := raw["cluster"]; ok {
		t.Errorf("cluster reported for an organization token: %v", raw["cluster"])
	}
	if m.Organization.Slug != "acme" {
		t.Errorf("organization %+v", m.Organization)
	}
	if want := (agentCounts{Idle: 2, Busy: 2, Total: 4}); m.Agents.agentCounts != want {
		t.Errorf("agents %+v, want %+v", m.Agents.agentCounts, want)
	}
	wantAgentQueues := map[string]agentCounts{
		"linux":   {Idle: 1, Busy: 1, Total: 2},
		"default": {Idle: 1, Busy: 1, Total: 2},
	}
	if !reflect.DeepEqual(m.Agents.Queues, wantAgentQueues) {
		t.Errorf("agent queues %+v", m.Agents.Queues)
	}
	if want := (jobCounts{Scheduled: 4, Running: 1, Waiting: 2, Total: 7}); m.Jobs.jobCounts != want {
		t.Errorf("jobs %+v, want %+v", m.Jobs.jobCounts, want)
	}
	wantJobQueues := map[string]jobCounts{
		"linux":   {Scheduled: 4, Running: 1, Total: 5},
		"default": {Waiting: 2, Total: 2},
	}
	if !reflect.DeepEqual(m.Jobs.Queues, wantJobQueues) {
		t.Errorf("job queues %+v", m.Jobs.Queues)
	}

	// The per-queue variant keeps that queue only; an unknown queue reports zeros.
	status, m, _ = getMetrics(t, srv, "/v3/metrics/queue?name=linux", "Token agent-token", "")
	if status != 200 || m.Agents.agentCounts != wantAgentQueues["linux"] || m.Jobs.jobCounts != wantJobQueues["linux"] ||
		len(m.Agents.Queues) != 1 || len(m.Jobs.Queues) != 1 || m.Organization.Slug != "acme" {
		t.Errorf("queue linux: %d %+v", status, m)
	}
	status, m, _ = getMetrics(t, srv, "/v3/metrics/queue?name=nope", "Token agent-token", "")
	if status != 200 || m.Agents.Total != 0 || m.Jobs.Total != 0 || m.Agents.Queues["nope"] != (agentCounts{}) ||
		len(m.Agents.Queues) != 1 {
		t.Errorf("queue nope: %d %+v", status, m)
	}
	status, _, raw = getMetrics(t, srv, "/v3/metrics/queue", "Token agent-token", "")
	if status != http.StatusBadRequest || raw["message"] == "" {
		t.Errorf("no queue name: %d %v", status, raw)
	}

	// Agents change state; job counts are replaced.
	st := srv.Store()
	id, _ := st.AddAgent(AgentFixture{Org: "acme", Name: "new", Queue: "linux"})
	if err := st.SetAgentState(id, "busy"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetQueueJobs(QueueJobsFixture{Org: "acme", State: "waiting", Count: 5}); err != nil {
		t.Fatal(err)
	}
	_, m, _ = getMetrics(t, srv, "/v3/metrics", "Token agent-token", "")
	if m.Agents.Busy != 3 || m.Agents.Total != 5 || m.Jobs.Waiting != 5 || m.Jobs.Total != 10 {
		t.Errorf("after changes: %+v", m)
	}
}

func TestMetricsAuthentication(t *testing.T) {
	srv := New(Options{})
	seedMetrics(t, srv.Store())
	for name, auth := range map[string]string{
		"missing":      "",
		"unknown":      "Token nope",
		"bearer":       "Bearer agent-token",
		"access token": "Token test-token",
		"empty":        "Token ",
	} {
		for _, path := range []string{"/v3/metrics", "/v3/metrics/queue?name=linux"} {
			status, _, raw := getMetrics(t, srv, path, auth, "")
			if status != http.StatusUnauthorized || raw["message"] == "" {
				t.Errorf("%s %s: %d %v", name, path, status, raw)
			}
		}
	}
	// Case of the scheme does not matter.
	if status, _, _ := getMetrics(t, srv, "/v3/metrics", "token agent-token", ""); status != 200 {
		t.Errorf("lower-case scheme: %d", status)
	}
	// A removed token no longer authenticates.
	if !srv.Store().Exists(KindAgentToken, "acme", "agent-token") || srv.Store().Exists(KindAgentToken, "other", "agent-token") {
		t.Fatal("Exists(KindAgentToken)")
	}
	if !srv.Store().Remove(KindAgentToken, "acme", "agent-token") {
		t.Fatal("Remove(KindAgentToken)")
	}
	if status, _, _ := getMetrics(t, srv, "/v3/metrics", "Token agent-token", ""); status != 401 {
		t.Errorf("removed token: %d", status)
	}
}

func TestMetricsClusterToken(t *testing.T) {
	e := newEnv(t, Options{})
	seedMetrics(t, e.srv.Store())
	cid := e.createCluster("Platform")
	e.createQueue(cid, "linux")
	e.createQueue(cid, "macos") // listed with zeros
	other := e.createCluster("Other")
	e.createQueue(other, "gpu")
	if _, err := e.srv.Store().AddAgent(AgentFixture{Org: "acme", Name: "by-id", Queue: "linux", Cluster: cid}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.Store().AddAgent(AgentFixture{Org: "acme", Name: "gpu-1", Queue: "gpu", Cluster: other}); err != nil {
		t.Fatal(err)
	}

	r := e.api("POST", "/clusters/"+cid+"/tokens", map[string]any{"description": "open"})
	expect(t, r, http.StatusCreated)
	open := r.object(t)["token"].(string)
	r = e.api("POST", "/clusters/"+cid+"/tokens", map[string]any{"description": "office", "allowed_ip_addresses": "10.0.0.0/8"})
	expect(t, r, http.StatusCreated)
	office := r.object(t)["token"].(string)

	status, m, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+open, "")
	if status != http.StatusOK {
		t.Fatalf("status %d %v", status, raw)
	}
	if m.Cluster == nil || m.Cluster.Name != "Platform" || m.Organization.Slug != "acme" {
		t.Fatalf("cluster %+v organization %+v", m.Cluster, m.Organization)
	}
	wantAgents := map[string]agentCounts{"linux": {Idle: 2, Busy: 1, Total: 3}, "macos": {}}
	if !reflect.DeepEqual(m.Agents.Queues, wantAgents) || m.Agents.agentCounts != wantAgents["linux"] {
		t.Errorf("agents %+v", m.Agents)
	}
	wantJobs := map[string]jobCounts{"linux": {Scheduled: 4, Running: 1, Total: 5}, "macos": {}}
	if !reflect.DeepEqual(m.Jobs.Queues, wantJobs) || m.Jobs.jobCounts != wantJobs["linux"] {
		t.Errorf("jobs %+v", m.Jobs)
	}

	// The organization token sees every cluster's queues, and the unclustered agents.
	_, m, _ = getMetrics(t, e.srv, "/v3/metrics", "Token agent-token", "")
	if m.Agents.Total != 6 || len(m.Agents.Queues) != 4 || m.Agents.Queues["gpu"].Total != 1 {
		t.Errorf("organization token: %+v", m.Agents)
	}

	// Per queue, within the cluster.
	_, m, _ = getMetrics(t, e.srv, "/v3/metrics/queue?name=linux", "Token "+open, "")
	if m.Agents.Total != 3 || m.Jobs.Total != 5 || m.Cluster == nil || len(m.Agents.Queues) != 1 {
		t.Errorf("queue linux: %+v", m)
	}
	_, m, _ = getMetrics(t, e.srv, "/v3/metrics/queue?name=gpu", "Token "+open, "")
	if m.Agents.Total != 0 {
		t.Errorf("another cluster's queue: %+v", m.Agents)
	}

	// allowed_ip_addresses: inside the network, outside, and an address that does not parse.
	if status, _, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+office, "10.1.2.3:5555"); status != 200 {
		t.Errorf("inside: %d %v", status, raw)
	}
	for _, addr := range []string{"192.168.1.1:5555", "[2001:db8::1]:80", "garbage"} {
		status, _, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+office, addr)
		if status != http.StatusForbidden || raw["message"] == "" {
			t.Errorf("%s: %d %v", addr, status, raw)
		}
		status, _, _ = getMetrics(t, e.srv, "/v3/metrics/queue?name=linux", "Token "+office, addr)
		if status != http.StatusForbidden {
			t.Errorf("%s per queue: %d", addr, status)
		}
	}

	// Deleting the cluster takes its tokens: they no longer authenticate.
	expect(t, e.api("DELETE", "/clusters/"+cid, nil), http.StatusNoContent)
	if status, _, _ := getMetrics(t, e.srv, "/v3/metrics", "Token "+open, ""); status != 401 {
		t.Errorf("deleted cluster's token: %d", status)
	}
}

func TestIPAllowed(t *testing.T) {
	for _, tt := range []struct {
		remote, allowed string
		want            bool
	}{
		{"1.2.3.4:1", "", true},
		{"1.2.3.4:1", "1.2.3.0/24", true},
		{"1.2.3.4:1", "5.0.0.0/8 1.2.0.0/16", true},
		{"1.2.3.4:1", "  5.0.0.0/8   1.2.0.0/16 ", true},
		{"1.2.3.4:1", "5.0.0.0/8,1.2.0.0/16", false}, // spaces separate blocks, commas do not
		{"1.2.3.4:1", "5.0.0.0/8", false},
		{"[fe80::1%eth0]:1", "fe80::/10", true},
		{"1.2.3.4", "1.2.3.4/32", true}, // no port
		{"nonsense", "0.0.0.0/0", false},
		{"1.2.3.4:1", "not-a-cidr", false},
	} {
		if got := ipAllowed(tt.remote, tt.allowed); got != tt.want {
			t.Errorf("ipAllowed(%q, %q) = %v, want %v", tt.remote, tt.allowed, got, tt.want)
		}
	}
}

func TestMetricsSeedingErrors(t *testing.T) {
	st := New(Options{}).Store()
	if err := st.AddAgentToken("nope", "x"); err == nil {
		t.Error("agent token of an unknown organization")
	}
	if err := st.AddAgentToken("acme", ""); err == nil {
		t.Error("empty agent token")
	}
	if _, err := st.AddAgent(AgentFixture{Org: "nope", Name: "a"}); err == nil {
		t.Error("agent of an unknown organization")
	}
	if _, err := st.AddAgent(AgentFixture{Org: "acme"}); err == nil {
		t.Error("agent without a name")
	}
	if _, err := st.AddAgent(AgentFixture{Org: "acme", Name: "a", State: "asleep"}); err == nil {
		t.Error("agent in an unknown state")
	}
	if err := st.SetAgentState("nope", "busy"); err == nil {
		t.Error("state of an unknown agent")
	}
	id, err := st.AddAgent(AgentFixture{Org: "acme", Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetAgentState(id, "asleep"); err == nil {
		t.Error("unknown state")
	}
	if err := st.SetQueueJobs(QueueJobsFixture{Org: "nope", State: "running"}); err == nil {
		t.Error("jobs of an unknown organization")
	}
	if err := st.SetQueueJobs(QueueJobsFixture{Org: "acme", State: "finished"}); err == nil {
		t.Error("jobs in an unknown state")
	}
	if err := st.SetQueueJobs(QueueJobsFixture{Org: "acme", State: "running", Count: -1}); err == nil {
		t.Error("negative count")
	}

	if !st.Exists(KindAgent, "acme", id) || st.Exists(KindAgent, "other", id) {
		t.Fatal("Exists(KindAgent)")
	}
	if st.Remove(KindAgent, "other", id) || !st.Remove(KindAgent, "acme", id) || st.Exists(KindAgent, "acme", id) {
		t.Fatal("Remove(KindAgent)")
	}
}

package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// hasKeys fails unless every key is present in m (null counts as present).
func hasKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("field %s absent from %v", k, m)
		}
	}
}

func TestClusterCRUD(t *testing.T) {
	e := newEnv(t, Options{})

	r := e.api("POST", "/clusters", map[string]any{"name": "Prod", "description": "d", "emoji": ":rocket:", "color": "#ff0000"})
	expect(t, r, http.StatusCreated)
	c := r.object(t)
	hasKeys(t, c, "id", "graphql_id", "default_queue_id", "name", "description", "emoji", "color", "url", "web_url",
		"queues_url", "default_queue_url", "created_at", "created_by")
	id := c["id"].(string)
	if c["name"] != "Prod" || c["description"] != "d" || c["emoji"] != ":rocket:" || c["color"] != "#ff0000" ||
		c["default_queue_id"] != nil || c["default_queue_url"] != nil {
		t.Fatalf("created %v", c)
	}
	if c["url"] != e.ts.URL+"/v2/organizations/acme/clusters/"+id || c["queues_url"] != c["url"].(string)+"/queues" {
		t.Fatalf("urls %v %v", c["url"], c["queues_url"])
	}
	if c["created_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("created_by %v", c["created_by"])
	}

	// Optional properties default to empty strings.
	bare := e.api("POST", "/clusters", map[string]any{"name": "Bare"}).object(t)
	if bare["description"] != "" || bare["emoji"] != "" || bare["color"] != "" {
		t.Fatalf("bare %v", bare)
	}

	r = e.api("GET", "/clusters/"+id, nil)
	expect(t, r, 200)
	if r.object(t)["name"] != "Prod" {
		t.Fatalf("get %s", r.raw)
	}

	l := e.api("GET", "/clusters", nil).list(t)
	if len(l) != 2 || l[0]["id"] != id || l[1]["name"] != "Bare" {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"PUT", "PATCH"} {
		r = e.api(method, "/clusters/"+id, map[string]any{"name": "Prod " + method, "color": "#00ff00"})
		expect(t, r, 200)
		u := r.object(t)
		if u["name"] != "Prod "+method || u["color"] != "#00ff00" || u["description"] != "d" || u["emoji"] != ":rocket:" {
			t.Fatalf("%s: %v", method, u)
		}
	}
	// null empties an optional string.
	if u := e.api("PUT", "/clusters/"+id, `{"description":null}`).object(t); u["description"] != "" {
		t.Fatalf("null description: %v", u)
	}

	r = e.api("DELETE", "/clusters/"+id, nil)
	expect(t, r, http.StatusNoContent)
	if len(r.raw) != 0 {
		t.Fatalf("204 with body %q", r.raw)
	}
	expectError(t, e.api("GET", "/clusters/"+id, nil), 404, "No cluster found")
	expectError(t, e.api("DELETE", "/clusters/"+id, nil), 404, "No cluster found")
	expectError(t, e.api("PUT", "/clusters/"+id, map[string]any{"name": "x"}), 404, "No cluster found")
}

func TestClusterValidation(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.api("POST", "/clusters", map[string]any{}), 422, "Validation failed: Name can't be blank")
	expectError(t, e.api("POST", "/clusters", map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, e.api("POST", "/clusters", map[string]any{"name": nil}), 422, "Validation failed: Name can't be blank")
	id := e.createCluster("c")
	expectError(t, e.api("PUT", "/clusters/"+id, map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, e.api("PATCH", "/clusters/"+id, map[string]any{"name": "ok", "color": 1}), 422,
		"Validation failed: Color must be a string")
	// A failed update changes nothing.
	if c := e.api("GET", "/clusters/"+id, nil).object(t); c["name"] != "c" {
		t.Fatalf("after failed update %v", c)
	}
}

func TestClusterOtherOrgIsInvisible(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("other-token", []string{"other"}, AllScopes())
	id := e.createCluster("acme's")
	expectError(t, e.do("GET", "/v2/organizations/other/clusters/"+id, "other-token", nil), 404, "No cluster found")
	if l := e.do("GET", "/v2/organizations/other/clusters", "other-token", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
}

func TestDefaultQueue(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	qid := e.createQueue(cid, "default")
	otherCluster := e.createCluster("other")
	foreignQueue := e.createQueue(otherCluster, "foreign")

	r := e.api("PUT", "/clusters/"+cid, map[string]any{"default_queue_id": qid})
	expect(t, r, 200)
	c := r.object(t)
	if c["default_queue_id"] != qid || c["default_queue_url"] != c["url"].(string)+"/queues/"+qid {
		t.Fatalf("default queue %v %v", c["default_queue_id"], c["default_queue_url"])
	}
	if got, ok := e.srv.Store().ClusterDefaultQueueID("acme", cid); !ok || got != qid {
		t.Fatalf("store default %q %v", got, ok)
	}

	for _, bad := range []string{foreignQueue, "no-such-queue"} {
		expectError(t, e.api("PATCH", "/clusters/"+cid, map[string]any{"default_queue_id": bad}), 422,
			"Validation failed: Default queue must be a queue of this cluster")
	}

	// "" or null clears it.
	c = e.api("PATCH", "/clusters/"+cid, map[string]any{"default_queue_id": ""}).object(t)
	if c["default_queue_id"] != nil || c["default_queue_url"] != nil {
		t.Fatalf("cleared %v", c)
	}
	e.api("PATCH", "/clusters/"+cid, map[string]any{"default_queue_id": qid})
	c = e.api("PATCH", "/clusters/"+cid, `{"default_queue_id":null}`).object(t)
	if c["default_queue_id"] != nil {
		t.Fatalf("null did not clear: %v", c)
	}

	// Deleting the default queue is allowed and leaves the cluster without one.
	e.api("PATCH", "/clusters/"+cid, map[string]any{"default_queue_id": qid})
	expect(t, e.api("DELETE", "/clusters/"+cid+"/queues/"+qid, nil), 204)
	c = e.api("GET", "/clusters/"+cid, nil).object(t)
	if c["default_queue_id"] != nil || c["default_queue_url"] != nil {
		t.Fatalf("after deleting the default queue %v", c)
	}
}

func TestQueueCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"

	r := e.api("POST", base, map[string]any{"key": "build-linux_1", "description": "Linux"})
	expect(t, r, 201)
	q := r.object(t)
	hasKeys(t, q, "id", "graphql_id", "key", "description", "url", "web_url", "cluster_url", "dispatch_paused",
		"dispatch_paused_by", "dispatch_paused_at", "dispatch_paused_note", "created_at", "created_by")
	qid := q["id"].(string)
	if q["key"] != "build-linux_1" || q["description"] != "Linux" || q["dispatch_paused"] != false ||
		q["dispatch_paused_by"] != nil || q["dispatch_paused_at"] != nil || q["dispatch_paused_note"] != nil {
		t.Fatalf("created %v", q)
	}
	clusterURL := e.ts.URL + "/v2/organizations/acme/clusters/" + cid
	if q["cluster_url"] != clusterURL || q["url"] != clusterURL+"/queues/"+qid {
		t.Fatalf("urls %v %v", q["cluster_url"], q["url"])
	}

	expect(t, e.api("GET", base+"/"+qid, nil), 200)
	e.createQueue(cid, "second")
	l := e.api("GET", base, nil).list(t)
	if len(l) != 2 || l[0]["key"] != "build-linux_1" || l[1]["key"] != "second" {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"PUT", "PATCH"} {
		r = e.api(method, base+"/"+qid, map[string]any{"description": method, "key": "ignored"})
		expect(t, r, 200)
		if u := r.object(t); u["description"] != method || u["key"] != "build-linux_1" {
			t.Fatalf("%s: %v", method, u)
		}
	}
	expectError(t, e.api("PUT", base+"/"+qid, map[string]any{"description": 3}), 422,
		"Validation failed: Description must be a string")

	expect(t, e.api("DELETE", base+"/"+qid, nil), 204)
	expectError(t, e.api("GET", base+"/"+qid, nil), 404, "No queue found")
	expectError(t, e.api("DELETE", base+"/"+qid, nil), 404, "No queue found")

	// Unknown cluster, and a queue reached through the wrong cluster.
	expectError(t, e.api("GET", "/clusters/nope/queues", nil), 404, "No cluster found")
	expectError(t, e.api("POST", "/clusters/nope/queues", map[string]any{"key": "k"}), 404, "No cluster found")
	other := e.createCluster("other")
	second := l[1]["id"].(string)
	expectError(t, e.api("GET", "/clusters/"+other+"/queues/"+second, nil), 404, "No queue found")
}

func TestQueueKeyValidation(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"
	e.createQueue(cid, "taken")
	tests := map[string]string{
		"":                       "Key can't be blank",
		"-leading":               "Key must start with a letter or digit and contain only letters, digits, hyphens and underscores",
		"has space":              "Key must start with a letter or digit and contain only letters, digits, hyphens and underscores",
		strings.Repeat("k", 101): "Key is too long (maximum is 100 characters)",
		"taken":                  "Key has already been taken",
	}
	for key, reason := range tests {
		expectError(t, e.api("POST", base, map[string]any{"key": key}), 422, "Validation failed: "+reason)
	}
	expectError(t, e.api("POST", base, map[string]any{}), 422, "Validation failed: Key can't be blank")
	expectError(t, e.api("POST", base, map[string]any{"key": 7}), 422, "Validation failed: Key must be a string")
	expect(t, e.api("POST", base, map[string]any{"key": strings.Repeat("k", 100)}), 201)
	// Keys are unique within a cluster only.
	e.createQueue(e.createCluster("other"), "taken")
}

func TestQueuePauseResume(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	qid := e.createQueue(cid, "q")
	base := "/clusters/" + cid + "/queues/" + qid

	expectError(t, e.api("POST", base+"/resume_dispatch", nil), 422, "Cluster queue is not paused")

	r := e.api("POST", base+"/pause_dispatch", map[string]any{"dispatch_paused_note": "maintenance"})
	expect(t, r, 200)
	q := r.object(t)
	if q["dispatch_paused"] != true || q["dispatch_paused_note"] != "maintenance" || q["dispatch_paused_at"] == nil {
		t.Fatalf("paused %v", q)
	}
	if by, _ := q["dispatch_paused_by"].(map[string]any); by == nil || by["name"] != "Test User" {
		t.Fatalf("dispatch_paused_by %v", q["dispatch_paused_by"])
	}
	if g := e.api("GET", base, nil).object(t); g["dispatch_paused"] != true || g["dispatch_paused_note"] != "maintenance" {
		t.Fatalf("get after pause %v", g)
	}

	expectError(t, e.api("POST", base+"/pause_dispatch", nil), 422, "Cluster queue is already paused")

	r = e.api("POST", base+"/resume_dispatch", nil)
	expect(t, r, 200)
	q = r.object(t)
	if q["dispatch_paused"] != false || q["dispatch_paused_by"] != nil || q["dispatch_paused_at"] != nil ||
		q["dispatch_paused_note"] != nil {
		t.Fatalf("resumed %v", q)
	}

	// The note may also be sent as "note"; no note (or "") is null.
	if q := e.api("POST", base+"/pause_dispatch", map[string]any{"note": "via note"}).object(t); q["dispatch_paused_note"] != "via note" {
		t.Fatalf("note: %v", q)
	}
	e.api("POST", base+"/resume_dispatch", nil)
	r = e.api("POST", base+"/pause_dispatch", nil)
	expect(t, r, 200)
	if q := r.object(t); q["dispatch_paused"] != true || q["dispatch_paused_note"] != nil {
		t.Fatalf("pause without note: %v", q)
	}
	e.api("POST", base+"/resume_dispatch", nil)
	if q := e.api("POST", base+"/pause_dispatch", map[string]any{"dispatch_paused_note": ""}).object(t); q["dispatch_paused_note"] != nil {
		t.Fatalf("empty note: %v", q)
	}

	expectError(t, e.api("POST", "/clusters/"+cid+"/queues/nope/pause_dispatch", nil), 404, "No queue found")
	expectError(t, e.api("POST", "/clusters/nope/queues/"+qid+"/resume_dispatch", nil), 404, "No cluster found")
}

func TestClusterTokenCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/tokens"

	r := e.api("POST", base, map[string]any{"description": "agents", "allowed_ip_addresses": "10.0.0.0/8"})
	expect(t, r, 201)
	tok := r.object(t)
	hasKeys(t, tok, "id", "graphql_id", "description", "allowed_ip_addresses", "url", "cluster_url", "expires_at", "created_at",
		"created_by", "token")
	id := tok["id"].(string)
	secret, _ := tok["token"].(string)
	if len(secret) < 32 || tok["description"] != "agents" || tok["allowed_ip_addresses"] != "10.0.0.0/8" {
		t.Fatalf("created %v", tok)
	}
	clusterURL := e.ts.URL + "/v2/organizations/acme/clusters/" + cid
	if tok["cluster_url"] != clusterURL || tok["url"] != clusterURL+"/tokens/"+id {
		t.Fatalf("urls %v", tok)
	}

	// The secret is in the create response only.
	got := e.api("GET", base+"/"+id, nil)
	expect(t, got, 200)
	if _, ok := got.object(t)["token"]; ok || strings.Contains(string(got.raw), secret) {
		t.Fatalf("get reveals the secret: %s", got.raw)
	}
	list := e.api("GET", base, nil)
	if l := list.list(t); len(l) != 1 || strings.Contains(string(list.raw), secret) {
		t.Fatalf("list %s", list.raw)
	}

	// Without allowed_ip_addresses the token is unrestricted: an empty string.
	if t2 := e.api("POST", base, map[string]any{"description": "open"}).object(t); t2["allowed_ip_addresses"] != "" || t2["token"] == secret {
		t.Fatalf("open token %v", t2)
	}

	for _, method := range []string{"PUT", "PATCH"} {
		r = e.api(method, base+"/"+id, map[string]any{"description": method, "allowed_ip_addresses": "192.168.1.0/24"})
		expect(t, r, 200)
		u := r.object(t)
		if u["description"] != method || u["allowed_ip_addresses"] != "192.168.1.0/24" {
			t.Fatalf("%s %v", method, u)
		}
		if _, ok := u["token"]; ok {
			t.Fatalf("%s reveals the secret", method)
		}
	}
	if u := e.api("PATCH", base+"/"+id, map[string]any{"allowed_ip_addresses": ""}).object(t); u["allowed_ip_addresses"] != "" || u["description"] != "PATCH" {
		t.Fatalf("clearing allowed_ip_addresses %v", u)
	}

	expect(t, e.api("DELETE", base+"/"+id, nil), 204)
	expectError(t, e.api("GET", base+"/"+id, nil), 404, "No cluster token found")
	expectError(t, e.api("PATCH", base+"/"+id, map[string]any{"description": "x"}), 404, "No cluster token found")
	expectError(t, e.api("DELETE", base+"/"+id, nil), 404, "No cluster token found")
	expectError(t, e.api("GET", "/clusters/nope/tokens", nil), 404, "No cluster found")
}

func TestClusterTokenValidation(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/tokens"
	expectError(t, e.api("POST", base, map[string]any{}), 422, "Validation failed: Description can't be blank")
	expectError(t, e.api("POST", base, map[string]any{"description": "d", "allowed_ip_addresses": "10.0.0.1"}), 422,
		"Validation failed: Allowed ip addresses 10.0.0.1 is not a valid CIDR")
	expectError(t, e.api("POST", base, map[string]any{"allowed_ip_addresses": "10.0.0.0/33"}), 422,
		"Validation failed: Description can't be blank, Allowed ip addresses 10.0.0.0/33 is not a valid CIDR")
	id := e.api("POST", base, map[string]any{"description": "d"}).object(t)["id"].(string)
	expectError(t, e.api("PUT", base+"/"+id, map[string]any{"description": ""}), 422,
		"Validation failed: Description can't be blank")
	expectError(t, e.api("PATCH", base+"/"+id, map[string]any{"allowed_ip_addresses": "nope"}), 422,
		"Validation failed: Allowed ip addresses nope is not a valid CIDR")
}

func TestClusterDeleteCascades(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	cid := e.createCluster("c")
	keep := e.createCluster("keep")
	qid := e.createQueue(cid, "q")
	keptQueue := e.createQueue(keep, "q")
	tid := e.api("POST", "/clusters/"+cid+"/tokens", map[string]any{"description": "d"}).object(t)["id"].(string)

	expect(t, e.api("DELETE", "/clusters/"+cid, nil), 204)
	for kind, id := range map[Kind]string{KindCluster: cid, KindQueue: cid + "/" + qid, KindClusterToken: cid + "/" + tid} {
		if st.Exists(kind, "acme", id) {
			t.Errorf("%s %s survived its cluster", kind, id)
		}
	}
	if !st.Exists(KindQueue, "acme", keep+"/"+keptQueue) || !st.Exists(KindCluster, "acme", keep) {
		t.Fatal("another cluster's queue was deleted")
	}
}

func TestStoreAccessors(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	cid := e.createCluster("c")
	qid := e.createQueue(cid, "q")
	tid := e.api("POST", "/clusters/"+cid+"/tokens", map[string]any{"description": "d"}).object(t)["id"].(string)

	for kind, id := range map[Kind]string{KindCluster: cid, KindQueue: cid + "/" + qid, KindClusterToken: cid + "/" + tid} {
		if !st.Exists(kind, "acme", id) {
			t.Errorf("%s does not exist", kind)
		}
		if st.Exists(kind, "other", id) {
			t.Errorf("%s exists in another org", kind)
		}
		if st.Exists(kind, "acme", "nope") {
			t.Errorf("unknown %s exists", kind)
		}
	}
	// Nested kinds name their cluster, and it must be theirs: a bare ID, another cluster or an empty part
	// names nothing, and Remove leaves the record alone.
	other := e.createCluster("other")
	for _, kind := range []Kind{KindQueue, KindClusterToken} {
		child := map[Kind]string{KindQueue: qid, KindClusterToken: tid}[kind]
		for _, bad := range []string{child, other + "/" + child, "nope/" + child, cid + "/", "/" + child, cid + "/nope", ""} {
			if st.Exists(kind, "acme", bad) || st.Remove(kind, "acme", bad) {
				t.Errorf("%s %q exists", kind, bad)
			}
		}
	}

	if got, ok := st.ClusterDefaultQueueID("acme", cid); !ok || got != "" {
		t.Fatalf("default %q %v", got, ok)
	}
	if _, ok := st.ClusterDefaultQueueID("acme", "nope"); ok {
		t.Fatal("unknown cluster reported")
	}
	if err := st.SetClusterDefaultQueueID("acme", cid, qid); err != nil {
		t.Fatal(err)
	}
	if c := e.api("GET", "/clusters/"+cid, nil).object(t); c["default_queue_id"] != qid {
		t.Fatalf("API does not show the store's default: %v", c)
	}
	if err := st.SetClusterDefaultQueueID("acme", cid, "nope"); err == nil {
		t.Fatal("unknown queue accepted")
	}
	if err := st.SetClusterDefaultQueueID("acme", "nope", ""); err == nil {
		t.Fatal("unknown cluster accepted")
	}

	// Remove works like the API: "deleted outside Terraform".
	if !st.Remove(KindQueue, "acme", cid+"/"+qid) || st.Remove(KindQueue, "acme", cid+"/"+qid) {
		t.Fatal("Remove queue")
	}
	if got, _ := st.ClusterDefaultQueueID("acme", cid); got != "" {
		t.Fatalf("removing the default queue left %q", got)
	}
	expectError(t, e.api("GET", "/clusters/"+cid+"/queues/"+qid, nil), 404, "No queue found")
	if !st.Remove(KindClusterToken, "acme", cid+"/"+tid) || st.Exists(KindClusterToken, "acme", cid+"/"+tid) {
		t.Fatal("Remove token")
	}
	if st.Remove(KindCluster, "other", cid) {
		t.Fatal("Remove from the wrong org")
	}
	qid2 := e.createQueue(cid, "q2")
	if !st.Remove(KindCluster, "acme", cid) || st.Exists(KindQueue, "acme", cid+"/"+qid2) {
		t.Fatal("Remove cluster did not cascade")
	}
	expectError(t, e.api("GET", "/clusters/"+cid, nil), 404, "No cluster found")

	defer func() {
		if recover() == nil {
			t.Fatal("unknown kind did not panic")
		}
	}()
	st.Exists(Kind("clutser"), "acme", cid)
}

func TestConcurrentWriters(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/queues"

	const n = 20
	var wg sync.WaitGroup
	statuses := make([]int, n)
	sameKey := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.api("POST", base, map[string]any{"key": fmt.Sprintf("q%d", i)}).status
			sameKey[i] = e.api("POST", base, map[string]any{"key": "contested"}).status
			e.api("GET", base, nil)
			e.api("PATCH", "/clusters/"+cid, map[string]any{"description": fmt.Sprint(i)})
		}()
	}
	wg.Wait()

	won := 0
	for i := range n {
		if statuses[i] != 201 {
			t.Errorf("writer %d: %d", i, statuses[i])
		}
		switch sameKey[i] {
		case 201:
			won++
		case 422:
		default:
			t.Errorf("contested create %d: %d", i, sameKey[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d creates of the same key succeeded, want 1", won)
	}
	r := e.api("GET", base+"?per_page=100", nil)
	if l := r.list(t); len(l) != n+1 {
		t.Fatalf("%d queues, want %d", len(l), n+1)
	}
}

func TestClusterTokenAllowedIPAddresses(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/tokens"

	// One or more CIDR blocks separated by spaces, echoed as sent by every response.
	for _, allowed := range []string{"10.0.0.0/8 192.168.1.0/24", "10.0.0.0/8  2001:db8::/32 ", "0.0.0.0/0"} {
		r := e.api("POST", base, map[string]any{"description": "d", "allowed_ip_addresses": allowed})
		expect(t, r, 201)
		id := r.object(t)["id"].(string)
		if got := e.api("GET", base+"/"+id, nil).object(t)["allowed_ip_addresses"]; got != allowed {
			t.Fatalf("allowed_ip_addresses %q, want %q", got, allowed)
		}
	}
	id := e.api("POST", base, map[string]any{"description": "d"}).object(t)["id"].(string)
	if u := e.api("PATCH", base+"/"+id, map[string]any{"allowed_ip_addresses": "10.0.0.0/8 172.16.0.0/12"}).object(t); u["allowed_ip_addresses"] != "10.0.0.0/8 172.16.0.0/12" {
		t.Fatalf("update %v", u)
	}

	// Every block must parse; each bad one is named.
	for allowed, want := range map[string]string{
		"10.0.0.0/8 nope":            "Allowed ip addresses nope is not a valid CIDR",
		"10.0.0.0/8,192.168.1.0/24":  "Allowed ip addresses 10.0.0.0/8,192.168.1.0/24 is not a valid CIDR",
		"10.0.0.1 10.0.0.0/33":       "Allowed ip addresses 10.0.0.1 is not a valid CIDR, Allowed ip addresses 10.0.0.0/33 is not a valid CIDR",
		"192.168.1.0/24 300.0.0.0/8": "Allowed ip addresses 300.0.0.0/8 is not a valid CIDR",
	} {
		expectError(t, e.api("POST", base, map[string]any{"description": "d", "allowed_ip_addresses": allowed}), 422,
			"Validation failed: "+want)
		expectError(t, e.api("PUT", base+"/"+id, map[string]any{"allowed_ip_addresses": allowed}), 422, "Validation failed: "+want)
	}
	expectError(t, e.api("POST", base, map[string]any{"description": "d", "allowed_ip_addresses": []string{"10.0.0.0/8"}}), 422,
		"Validation failed: Allowed ip addresses must be a string")
}

func TestClusterTokenExpiry(t *testing.T) {
	clock := newBuildClock() // 2024-03-01 12:00 UTC
	e := newEnv(t, Options{Now: clock.Now})
	cid := e.createCluster("c")
	base := "/clusters/" + cid + "/tokens"

	// Unset: null on every response.
	r := e.api("POST", base, map[string]any{"description": "forever"})
	forever := r.object(t)
	if v, ok := forever["expires_at"]; !ok || v != nil {
		t.Fatalf("expires_at %v (present %v)", v, ok)
	}
	if v, ok := e.api("POST", base, map[string]any{"description": "null", "expires_at": nil}).object(t)["expires_at"]; !ok || v != nil {
		t.Fatalf("null expires_at %v", v)
	}

	r = e.api("POST", base, map[string]any{"description": "short", "expires_at": "2024-03-01T12:03:00+01:00"})
	expectError(t, r, 422, "Validation failed: Expires at must be in the future") // 11:03 UTC
	r = e.api("POST", base, map[string]any{"description": "short", "expires_at": "2024-03-01T13:02:30.5+01:00"})
	expect(t, r, 201)
	short := r.object(t)
	if short["expires_at"] != "2024-03-01T12:02:30.500Z" {
		t.Fatalf("expires_at %v", short["expires_at"])
	}
	id := short["id"].(string)
	for _, got := range []map[string]any{
		e.api("GET", base+"/"+id, nil).object(t),
		e.api("GET", base, nil).list(t)[2],
		e.api("PATCH", base+"/"+id, map[string]any{"description": "renamed", "expires_at": "2030-01-01T00:00:00Z"}).object(t),
	} {
		if got["expires_at"] != "2024-03-01T12:02:30.500Z" {
			t.Fatalf("expires_at %v (update must not change it)", got["expires_at"])
		}
	}

	for value, want := range map[string]string{
		"tomorrow":             "Expires at is not a valid ISO 8601 timestamp",
		"2024-03-02":           "Expires at is not a valid ISO 8601 timestamp",
		"2024-03-01T12:00:00Z": "Expires at must be in the future", // now is not the future
		"2020-01-01T00:00:00Z": "Expires at must be in the future",
	} {
		expectError(t, e.api("POST", base, map[string]any{"description": "d", "expires_at": value}), 422, "Validation failed: "+want)
	}
	expectError(t, e.api("POST", base, map[string]any{"expires_at": 5}), 422,
		"Validation failed: Expires at must be a string, Description can't be blank")

	// /v3/metrics takes the token until it expires, then answers 401; a token without expiry goes on.
	if status, _, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+short["token"].(string), ""); status != 200 {
		t.Fatalf("before expiry: %d %v", status, raw)
	}
	clock.tick()
	clock.tick()
	clock.tick()
	status, _, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+short["token"].(string), "")
	if status != 401 || raw["message"] != errAgentUnauthorized().body.(messageBody).Message {
		t.Fatalf("after expiry: %d %v", status, raw)
	}
	if status, _, raw := getMetrics(t, e.srv, "/v3/metrics", "Token "+forever["token"].(string), ""); status != 200 {
		t.Fatalf("token without expiry: %d %v", status, raw)
	}
}

// TestClusterHostedSettings: both settings show on the cluster, false on a new one; a change is refused (422)
// until the cluster has a hosted queue, while sending the value it holds is no change; the first hosted queue
// turns the container cache on; then PATCH and PUT change them.
func TestClusterHostedSettings(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	c := e.api("GET", "/clusters/"+cid, nil).object(t)
	if c["hosted_git_mirror_enabled"] != false || c["hosted_container_cache_enabled"] != false {
		t.Fatalf("new cluster %v", c)
	}
	expectError(t, e.api("PATCH", "/clusters/"+cid, map[string]any{"hosted_git_mirror_enabled": true}), 422,
		"Validation failed: Hosted git mirror enabled can only be changed once the cluster has a hosted queue")
	expectError(t, e.api("PUT", "/clusters/"+cid, map[string]any{"hosted_container_cache_enabled": true}), 422,
		"Validation failed: Hosted container cache enabled can only be changed once the cluster has a hosted queue")
	expect(t, e.api("PATCH", "/clusters/"+cid, map[string]any{"hosted_git_mirror_enabled": false}), 200)
	// A self-hosted queue is no hosted queue.
	e.createQueue(cid, "self")
	expect(t, e.api("PATCH", "/clusters/"+cid, map[string]any{"hosted_git_mirror_enabled": true}), 422)

	expect(t, e.api("POST", "/clusters/"+cid+"/queues", map[string]any{"key": "linux",
		"hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), 201)
	if c = e.api("GET", "/clusters/"+cid, nil).object(t); c["hosted_container_cache_enabled"] != true || c["hosted_git_mirror_enabled"] != false {
		t.Fatalf("after the first hosted queue %v", c)
	}
	c = e.api("PATCH", "/clusters/"+cid, map[string]any{"hosted_git_mirror_enabled": true, "hosted_container_cache_enabled": false}).object(t)
	if c["hosted_git_mirror_enabled"] != true || c["hosted_container_cache_enabled"] != false {
		t.Fatalf("patched %v", c)
	}
	// A second hosted queue leaves the container cache as it is.
	expect(t, e.api("POST", "/clusters/"+cid+"/queues", map[string]any{"key": "linux2",
		"hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}}), 201)
	if c = e.api("GET", "/clusters/"+cid, nil).object(t); c["hosted_container_cache_enabled"] != false {
		t.Fatalf("after a second hosted queue %v", c)
	}
	expectError(t, e.api("PATCH", "/clusters/"+cid, map[string]any{"hosted_git_mirror_enabled": "yes"}), 422,
		"Validation failed: Hosted git mirror enabled must be a boolean")
}

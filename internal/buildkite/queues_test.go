package buildkite

import (
	"context"
	"net/http"
	"testing"
)

const queueID = "01885682-55a7-44f5-84f3-0402fb452e66"

const queuesPath = "/v2/organizations/acme/clusters/" + clusterID + "/queues"

// queueJSON is an active queue, shaped as in https://buildkite.com/docs/apis/rest-api/clusters/queues.
const queueJSON = `{
  "id": "01885682-55a7-44f5-84f3-0402fb452e66",
  "graphql_id": "Q2x1c3RlclF1ZXVlLS0tMDE4ODU2ODItNTVhNy00NGY1LTg0ZjMtMDQwMmZiNDUyZTY2",
  "key": "default",
  "description": "The default queue for this cluster",
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues/01885682-55a7-44f5-84f3-0402fb452e66",
  "web_url": "https://buildkite.com/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues/01885682-55a7-44f5-84f3-0402fb452e66",
  "cluster_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "dispatch_paused": false,
  "dispatch_paused_by": null,
  "dispatch_paused_at": null,
  "dispatch_paused_note": null,
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

// pausedQueueJSON is the same queue after pause_dispatch.
const pausedQueueJSON = `{
  "id": "01885682-55a7-44f5-84f3-0402fb452e66",
  "graphql_id": "Q2x1c3RlclF1ZXVlLS0tMDE4ODU2ODItNTVhNy00NGY1LTg0ZjMtMDQwMmZiNDUyZTY2",
  "key": "default",
  "description": "The default queue for this cluster",
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues/01885682-55a7-44f5-84f3-0402fb452e66",
  "web_url": "https://buildkite.com/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues/01885682-55a7-44f5-84f3-0402fb452e66",
  "cluster_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "dispatch_paused": true,
  "dispatch_paused_by": ` + userJSON + `,
  "dispatch_paused_at": "2026-01-03T10:11:12.456Z",
  "dispatch_paused_note": "Weekend maintenance",
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

func assertQueue(t *testing.T, q *Queue, paused bool) {
	t.Helper()
	if q.ID != queueID || q.GraphQLID == "" || q.Key != "default" || q.Description != "The default queue for this cluster" ||
		q.URL == "" || q.WebURL == "" || q.ClusterURL == "" {
		t.Errorf("queue decoded as %+v", q)
	}
	if q.CreatedAt == nil || !q.CreatedAt.Equal(mustTime(t, "2026-01-02T03:04:05.123Z")) {
		t.Errorf("created_at = %v", q.CreatedAt)
	}
	assertUser(t, q.CreatedBy)
	if !paused {
		if q.DispatchPaused || q.DispatchPausedBy != nil || q.DispatchPausedAt != nil || q.DispatchPausedNote != nil {
			t.Errorf("pause fields set on an active queue: %+v", q)
		}
		return
	}
	if !q.DispatchPaused || q.DispatchPausedNote == nil || *q.DispatchPausedNote != "Weekend maintenance" ||
		q.DispatchPausedAt == nil || !q.DispatchPausedAt.Equal(mustTime(t, "2026-01-03T10:11:12.456Z")) {
		t.Errorf("pause fields = %v %v %v", q.DispatchPaused, q.DispatchPausedAt, q.DispatchPausedNote)
	}
	assertUser(t, q.DispatchPausedBy)
}

func TestQueues_List(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[`+queueJSON+`,`+pausedQueueJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.List(context.Background(), clusterID)
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", queuesPath, "")
	if r.Query != "per_page=100" {
		t.Errorf("query = %q", r.Query)
	}
	if len(got) != 2 {
		t.Fatalf("%d queues", len(got))
	}
	assertQueue(t, &got[0], false)
	assertQueue(t, &got[1], true)
}

func TestQueues_Get(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, queueJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Get(context.Background(), clusterID, queueID)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", queuesPath+"/"+queueID, "")
	assertQueue(t, got, false)
}

func TestQueues_Create(t *testing.T) {
	s := newStub(t, creating(respond(http.StatusCreated, queueJSON)))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Create(context.Background(), clusterID, QueueCreate{Key: "default", Description: ptr("The default queue for this cluster")})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", queuesPath, `{"key":"default","description":"The default queue for this cluster"}`)
	assertQueue(t, got, false)

	s = newStub(t, creating(respond(http.StatusCreated, queueJSON)))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.Queues.Create(context.Background(), clusterID, QueueCreate{Key: "default"}); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", queuesPath, `{"key":"default"}`)
}

func TestQueues_Update(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, queueJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Update(context.Background(), clusterID, queueID, QueueUpdate{Description: ptr("The default queue for this cluster")})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PUT", queuesPath+"/"+queueID, `{"description":"The default queue for this cluster"}`)
	assertQueue(t, got, false)
}

func TestQueues_Delete(t *testing.T) {
	s := newStub(t, respond(http.StatusNoContent, ""))
	c := newTestClient(t, s.srv.URL)
	if err := c.Queues.Delete(context.Background(), clusterID, queueID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", queuesPath+"/"+queueID, "")
}

func TestQueues_Pause(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, pausedQueueJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Pause(context.Background(), clusterID, queueID, "Weekend maintenance")
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "POST", queuesPath+"/"+queueID+"/pause_dispatch", `{"dispatch_paused_note":"Weekend maintenance"}`)
	assertQueue(t, got, true)

	s = newStub(t, respond(http.StatusOK, pausedQueueJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.Queues.Pause(context.Background(), clusterID, queueID, ""); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "POST", queuesPath+"/"+queueID+"/pause_dispatch", `{}`)
}

func TestQueues_PauseAlreadyPaused(t *testing.T) {
	s := newStub(t, respond(http.StatusUnprocessableEntity, `{"message":"Cluster queue is already paused"}`))
	c := newTestClient(t, s.srv.URL)
	_, err := c.Queues.Pause(context.Background(), clusterID, queueID, "")
	if !IsValidation(err) || s.count() != 1 {
		t.Errorf("error = %v after %d requests", err, s.count())
	}
}

func TestQueues_Resume(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, queueJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Resume(context.Background(), clusterID, queueID)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "POST", queuesPath+"/"+queueID+"/resume_dispatch", "")
	assertQueue(t, got, false)
}

func TestQueues_ResumeWithoutBodyReadsQueue(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		respond(http.StatusOK, queueJSON)(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.Resume(context.Background(), clusterID, queueID)
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 2 || reqs[1].Method != http.MethodGet || reqs[1].Path != queuesPath+"/"+queueID {
		t.Errorf("requests = %+v, want the POST then a GET of the queue", reqs)
	}
	assertQueue(t, got, false)
}

package buildkite

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

const clusterID = "42f1a7da-812d-4430-93d8-1cc7c33a6bcf"

// clusterJSON is a cluster with a default queue, shaped as in
// https://buildkite.com/docs/apis/rest-api/clusters.
const clusterJSON = `{
  "id": "42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "graphql_id": "Q2x1c3Rlci0tLTQyZjFhN2RhLTgxMmQtNDQzMC05M2Q4LTFjYzdjMzNhNmJjZg==",
  "default_queue_id": "01885682-55a7-44f5-84f3-0402fb452e66",
  "name": "Open Source",
  "description": "A place for safely running our open source builds",
  "emoji": ":technologist:",
  "color": "#FFE0F1",
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "web_url": "https://buildkite.com/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "queues_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues",
  "default_queue_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues/01885682-55a7-44f5-84f3-0402fb452e66",
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

// newClusterJSON is a create response: no default queue yet, no avatar.
const newClusterJSON = `{
  "id": "42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "graphql_id": "Q2x1c3Rlci0tLTQyZjFhN2RhLTgxMmQtNDQzMC05M2Q4LTFjYzdjMzNhNmJjZg==",
  "default_queue_id": null,
  "name": "Open Source",
  "description": null,
  "emoji": null,
  "color": null,
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "web_url": "https://buildkite.com/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "queues_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/queues",
  "default_queue_url": null,
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": {"id": "3d3c3bf0-7d58-4afe-8fe7-b3017d5504de", "graphql_id": "VXNlci0tLTNkM2M=", "name": "Sam Kim", "email": "sam@example.com", "avatar_url": null, "created_at": "2025-05-03T04:17:43.118Z"}
}`

func assertCluster(t *testing.T, c *Cluster) {
	t.Helper()
	if c.ID != clusterID || c.GraphQLID == "" || c.Name != "Open Source" ||
		c.Description != "A place for safely running our open source builds" || c.Emoji != ":technologist:" ||
		c.Color != "#FFE0F1" || c.URL == "" || c.WebURL == "" || c.QueuesURL == "" {
		t.Errorf("cluster decoded as %+v", c)
	}
	if c.DefaultQueueID == nil || *c.DefaultQueueID != "01885682-55a7-44f5-84f3-0402fb452e66" || c.DefaultQueueURL == nil {
		t.Errorf("default queue = %v %v", c.DefaultQueueID, c.DefaultQueueURL)
	}
	if c.CreatedAt == nil || !c.CreatedAt.Equal(mustTime(t, "2026-01-02T03:04:05.123Z")) {
		t.Errorf("created_at = %v", c.CreatedAt)
	}
	assertUser(t, c.CreatedBy)
}

func TestClusters_List(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[`+clusterJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", "/v2/organizations/acme/clusters", "")
	if r.Query != "per_page=100" {
		t.Errorf("query = %q", r.Query)
	}
	if len(got) != 1 {
		t.Fatalf("%d clusters", len(got))
	}
	assertCluster(t, &got[0])
}

func TestClusters_Get(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, clusterJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Get(context.Background(), clusterID)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", "/v2/organizations/acme/clusters/"+clusterID, "")
	assertCluster(t, got)
}

func TestClusters_GetNotFound(t *testing.T) {
	s := newStub(t, respond(http.StatusNotFound, `{"message":"No cluster found"}`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Get(context.Background(), clusterID)
	if !IsNotFound(err) || got != nil {
		t.Errorf("Get = %v, %v; want not found", got, err)
	}
}

func TestClusters_Create(t *testing.T) {
	t.Run("all fields", func(t *testing.T) {
		s := newStub(t, creating(respond(http.StatusCreated, newClusterJSON)))
		c := newTestClient(t, s.srv.URL)
		got, err := c.Clusters.Create(context.Background(), ClusterCreate{
			Name: "Open Source", Description: ptr("builds"), Emoji: ptr(":technologist:"), Color: ptr("#FFE0F1"),
		})
		if err != nil {
			t.Fatal(err)
		}
		assertRequest(t, s.onlyCreate(t), "POST", "/v2/organizations/acme/clusters",
			`{"name":"Open Source","description":"builds","emoji":":technologist:","color":"#FFE0F1"}`)
		if got.ID != clusterID || got.DefaultQueueID != nil || got.DefaultQueueURL != nil || got.Description != "" {
			t.Errorf("created cluster = %+v", got)
		}
		if got.CreatedBy == nil || got.CreatedBy.AvatarURL != nil {
			t.Errorf("created_by = %+v", got.CreatedBy)
		}
	})
	t.Run("name only", func(t *testing.T) {
		s := newStub(t, creating(respond(http.StatusCreated, newClusterJSON)))
		c := newTestClient(t, s.srv.URL)
		if _, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "Open Source"}); err != nil {
			t.Fatal(err)
		}
		assertRequest(t, s.onlyCreate(t), "POST", "/v2/organizations/acme/clusters", `{"name":"Open Source"}`)
	})
}

func TestClusters_Update(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, clusterJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Update(context.Background(), clusterID, ClusterUpdate{
		Description: Value(""), DefaultQueueID: Value("01885682-55a7-44f5-84f3-0402fb452e66"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Set-but-empty fields are sent (to clear them); nil ones are not.
	assertRequest(t, s.only(t), "PUT", "/v2/organizations/acme/clusters/"+clusterID,
		`{"description":"","default_queue_id":"01885682-55a7-44f5-84f3-0402fb452e66"}`)
	assertCluster(t, got)
}

func TestClusters_Delete(t *testing.T) {
	for _, status := range []int{http.StatusNoContent, http.StatusOK} {
		s := newStub(t, respond(status, ""))
		c := newTestClient(t, s.srv.URL)
		if err := c.Clusters.Delete(context.Background(), clusterID); err != nil {
			t.Errorf("%d: %v", status, err)
		}
		assertRequest(t, s.only(t), "DELETE", "/v2/organizations/acme/clusters/"+clusterID, "")
	}

	s := newStub(t, respond(http.StatusUnprocessableEntity, `{"message":"Cluster can't be deleted while pipelines use it"}`))
	c := newTestClient(t, s.srv.URL)
	if err := c.Clusters.Delete(context.Background(), clusterID); !IsValidation(err) {
		t.Errorf("refused delete: error = %v", err)
	}
}

func TestClusters_ClearDefaultQueue(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, newClusterJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Update(context.Background(), clusterID, ClusterUpdate{DefaultQueueID: Cleared[string]()})
	if err != nil {
		t.Fatal(err)
	}
	// The null must be on the wire: leaving the field out would change nothing.
	assertRequest(t, s.only(t), "PUT", "/v2/organizations/acme/clusters/"+clusterID, `{"default_queue_id":null}`)
	if got.DefaultQueueID != nil {
		t.Errorf("default_queue_id = %v, want nil", *got.DefaultQueueID)
	}
}

func TestClusters_SetHostedSettings(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, clusterJSON))
	c := newTestClient(t, s.srv.URL)
	if _, err := c.Clusters.SetHostedSettings(context.Background(), clusterID, ClusterHostedSettings{
		HostedGitMirrorEnabled: Value(false),
	}); err != nil {
		t.Fatal(err)
	}
	// A false is sent (it turns the mirror off); the setting left unset is not.
	assertRequest(t, s.only(t), "PATCH", "/v2/organizations/acme/clusters/"+clusterID, `{"hosted_git_mirror_enabled":false}`)

	s = newStub(t, respond(http.StatusUnprocessableEntity, `{"message":"Hosted git mirror can only be changed on clusters with a hosted queue"}`))
	c = newTestClient(t, s.srv.URL)
	_, err := c.Clusters.SetHostedSettings(context.Background(), clusterID, ClusterHostedSettings{HostedContainerCacheEnabled: Value(true)})
	if !IsValidation(err) || !strings.Contains(err.Error(), "hosted queue") {
		t.Errorf("refused change: error = %v, want the service's 422 with its words", err)
	}
}

// TestClusterUpdate_bytes pins the bytes an update and a hosted settings change send: only the fields set, a
// cleared one as null, false sent as false; and IsZero is true exactly where the body is {}.
func TestClusterUpdate_bytes(t *testing.T) {
	for _, tc := range []struct {
		in   interface{ IsZero() bool }
		want string
	}{
		{ClusterUpdate{}, `{}`},
		{ClusterUpdate{Name: Value("n"), Description: Value("")}, `{"name":"n","description":""}`},
		{ClusterUpdate{DefaultQueueID: Cleared[string]()}, `{"default_queue_id":null}`},
		{ClusterHostedSettings{}, `{}`},
		{ClusterHostedSettings{HostedContainerCacheEnabled: Value(false)}, `{"hosted_container_cache_enabled":false}`},
		{ClusterHostedSettings{HostedGitMirrorEnabled: Value(true), HostedContainerCacheEnabled: Value(true)},
			`{"hosted_git_mirror_enabled":true,"hosted_container_cache_enabled":true}`},
	} {
		if tc.in.IsZero() != (tc.want == `{}`) {
			t.Errorf("%+v: IsZero = %t, but it sends %s", tc.in, tc.in.IsZero(), tc.want)
		}
		s := newStub(t, respond(http.StatusOK, clusterJSON))
		c := newTestClient(t, s.srv.URL)
		var err error
		switch in := tc.in.(type) {
		case ClusterUpdate:
			_, err = c.Clusters.Update(context.Background(), clusterID, in)
		case ClusterHostedSettings:
			_, err = c.Clusters.SetHostedSettings(context.Background(), clusterID, in)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := s.only(t).Body; got != tc.want {
			t.Errorf("body = %s\nwant   %s", got, tc.want)
		}
	}
}

package fakeserver

import (
	"net/http"
	"testing"
)

// TestGraphQLJobCancel: jobTypeCommandCancel (bk job cancel, which names the job
// "JobTypeCommand---<uuid>") cancels a job that has not finished, which REST then shows canceled, and
// refuses one that has; node(id:) finds the job.
func TestGraphQLJobCancel(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	id := graphQLID("JobTypeCommand", job)
	const m = `mutation CancelJob($jobId: ID!) {
	  jobTypeCommandCancel(input: { id: $jobId }) { clientMutationId jobTypeCommand { id uuid state url } }
	}`
	a := e.gql(m, map[string]any{"jobId": id}).ok(t)
	if got := a.str(t, "jobTypeCommandCancel", "jobTypeCommand", "state"); got != "CANCELED" {
		t.Errorf("state %s, want CANCELED", got)
	}
	if got := a.str(t, "jobTypeCommandCancel", "jobTypeCommand", "url"); got != e.ts.URL+"/acme/app/builds/1#"+job {
		t.Errorf("url %s", got)
	}
	r := e.api("GET", build+"/jobs/"+job, nil)
	expect(t, r, http.StatusOK)
	if s := r.object(t)["state"]; s != "canceled" {
		t.Errorf("REST state %v", s)
	}
	if msg := e.gql(m, map[string]any{"jobId": id}).errorMessage(t); msg != "Job can't be canceled because it is canceled" {
		t.Errorf("a second cancel: %q", msg)
	}
	if msg := e.gql(m, map[string]any{"jobId": graphQLID("JobTypeCommand", newID())}).errorMessage(t); msg != "No job found" {
		t.Errorf("an unknown job: %q", msg)
	}
	a = e.gql(`query($id: ID!) { node(id: $id) { ... on JobTypeCommand { uuid state passed exitStatus finishedAt } } }`, map[string]any{"id": id}).ok(t)
	if got := a.str(t, "node", "uuid"); got != job {
		t.Errorf("node: %s", a.raw)
	}
}

// TestGraphQLJobRetry: jobTypeCommandRetry, sent as Buildkite's CLI sends it (bk job retry), retries a failed
// job in the store as REST's retry does (REST then shows the old job retried and the new one scheduled),
// answers the job retried and the new job, and refuses, in REST's words, a job that has not failed or was
// already retried, and an unknown job.
func TestGraphQLJobRetry(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	id := graphQLID("JobTypeCommand", job)
	// The CLI's document (pkg/cmd/job/retry.graphql in github.com/buildkite/cli), with the new job asked too.
	const cli = `mutation RetryJob($id: ID!) {
	  jobTypeCommandRetry(input: {id: $id}) { jobTypeCommand { id state url } }
	}`
	const m = `mutation RetryJob($id: ID!) {
	  jobTypeCommandRetry(input: {id: $id, clientMutationId: "c1"}) {
	    clientMutationId
	    jobTypeCommand { uuid retried }
	    retriedInJobTypeCommand { id uuid state retried retriesCount }
	  }
	}`
	if msg := e.gql(cli, map[string]any{"id": id}).errorMessage(t); msg != "Only failed, timed out or canceled jobs can be retried" {
		t.Errorf("a scheduled job: %q", msg)
	}
	expect(t, e.buildAdmin("app", 1, "/jobs/"+job, map[string]any{"state": "failed"}), http.StatusOK)
	a := e.gql(m, map[string]any{"id": id}).ok(t)
	if a.str(t, "jobTypeCommandRetry", "clientMutationId") != "c1" || a.str(t, "jobTypeCommandRetry", "jobTypeCommand", "uuid") != job {
		t.Errorf("payload: %s", a.raw)
	}
	newJob := a.str(t, "jobTypeCommandRetry", "retriedInJobTypeCommand", "uuid")
	if newJob == job || a.str(t, "jobTypeCommandRetry", "retriedInJobTypeCommand", "state") != "SCHEDULED" ||
		a.str(t, "jobTypeCommandRetry", "retriedInJobTypeCommand", "id") != graphQLID("JobTypeCommand", newJob) {
		t.Errorf("the new job: %s", a.raw)
	}
	old := e.api("GET", build+"/jobs/"+job, nil).object(t)
	if old["retried"] != true || old["retried_in_job_id"] != newJob {
		t.Errorf("REST, the retried job: %v", old)
	}
	r := e.api("GET", build+"/jobs/"+newJob, nil)
	expect(t, r, http.StatusOK)
	if n := r.object(t); n["state"] != "scheduled" || n["retries_count"] != 1.0 || n["retry_type"] != "manual" {
		t.Errorf("REST, the new job: %v", n)
	}
	want := "This job has already been retried; retry its newest execution, " + newJob
	if msg := e.gql(cli, map[string]any{"id": id}).errorMessage(t); msg != want {
		t.Errorf("a second retry: %q", msg)
	}
	if msg := e.gql(cli, map[string]any{"id": graphQLID("JobTypeCommand", newID())}).errorMessage(t); msg != "No job found" {
		t.Errorf("an unknown job: %q", msg)
	}
}

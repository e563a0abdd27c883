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

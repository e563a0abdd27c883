package buildkite

import (
	"context"
	"fmt"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newPipeline creates pipeline "<name>" through the client and returns its slug.
func newPipeline(t *testing.T, c *Client, name string) string {
	t.Helper()
	p, err := c.Pipelines.Create(context.Background(), PipelineCreate{Name: name, Repository: "https://github.com/acme/app.git",
		Configuration: ptr(DefaultSteps)})
	if err != nil {
		t.Fatal(err)
	}
	return p.Slug
}

// readsOneListing creates n objects of one collection with create, then reads them all with read,
// through a client that answers reads from listings, and fails unless that cost one call: the listing at
// listPath.
func readsOneListing(t *testing.T, e *emulator, listPath string, n int, create func(i int) (string, error), read func(id string) error) {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		id, err := create(i)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	e.ResetRequests()
	readAll(t, ids, 4, read)
	if lists, items := e.gets(listPath); lists != 1 || items != 0 || len(e.Requests()) != 1 {
		t.Errorf("reading %d objects: %d listings and %d GETs of %s, %d calls in all; want the one listing",
			len(ids), lists, items, listPath, len(e.Requests()))
	}
}

func TestPipelineSchedules_Emulator(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	slug := newPipeline(t, c, "App")

	sc, err := c.PipelineSchedules.Create(ctx, slug, PipelineScheduleWrite{Cronline: "0 3 * * 1-5 Europe/Berlin",
		Label: ptr("Nightly"), Branch: ptr("main"), Env: map[string]string{"A": "b"}, Enabled: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID == "" || sc.Label != "Nightly" || sc.Enabled || sc.NextBuildAt != nil || sc.Commit != "HEAD" ||
		sc.Env["A"] != "b" || sc.Message != nil || sc.Pipeline == nil || sc.Pipeline.Slug != slug {
		t.Errorf("created %+v", sc)
	}
	sc, err = c.PipelineSchedules.Update(ctx, slug, sc.ID, PipelineScheduleWrite{Enabled: ptr(true), Message: ptr("Nightly build"),
		Env: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Enabled || sc.NextBuildAt == nil || len(sc.Env) != 0 || *sc.Message != "Nightly build" || sc.Label != "Nightly" {
		t.Errorf("updated %+v", sc)
	}
	if got, err := c.PipelineSchedules.Get(ctx, slug, sc.ID); err != nil || got.Cronline != sc.Cronline {
		t.Errorf("Get = %+v, %v", got, err)
	}
	if all, err := c.PipelineSchedules.List(ctx, slug); err != nil || len(all) != 1 {
		t.Errorf("List = %+v, %v", all, err)
	}
	if err := c.PipelineSchedules.Delete(ctx, slug, sc.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PipelineSchedules.Get(ctx, slug, sc.ID); !IsNotFound(err) {
		t.Errorf("Get after Delete: %v", err)
	}
	if _, err := c.PipelineSchedules.Create(ctx, slug, PipelineScheduleWrite{Cronline: "61 * * * *"}); !IsValidation(err) {
		t.Errorf("an invalid cronline: %v", err)
	}
}

// TestPipelineSchedules_refreshThroughListing: reading every schedule of a pipeline costs its listing.
func TestPipelineSchedules_refreshThroughListing(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	slug := newPipeline(t, c, "App")
	reader := newTestClient(t, e.url, withListReads)
	readsOneListing(t, e, "/v2/organizations/acme/pipelines/"+slug+"/schedules", 10, func(i int) (string, error) {
		sc, err := c.PipelineSchedules.Create(ctx, slug, PipelineScheduleWrite{Cronline: fmt.Sprintf("%d * * * *", i)})
		if err != nil {
			return "", err
		}
		return sc.ID, nil
	}, func(id string) error {
		_, err := reader.PipelineSchedules.Get(ctx, slug, id)
		return err
	})
}

// TestPipelineSchedules_lostCreateAdopted: a create that acts and loses its answer is found, not repeated.
func TestPipelineSchedules_lostCreateAdopted(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{Faults: fakeserver.Faults{DropCreates: 1}})
	c := newTestClient(t, e.url)
	slug := newPipeline(t, c, "App")
	sc, err := c.PipelineSchedules.Create(context.Background(), slug,
		PipelineScheduleWrite{Cronline: "@daily", Label: ptr("Nightly")})
	if err != nil {
		t.Fatal(err)
	}
	if all, err := c.PipelineSchedules.List(context.Background(), slug); err != nil || len(all) != 1 || all[0].ID != sc.ID {
		t.Fatalf("after a lost answer: %+v, %v; want the one schedule adopted", all, err)
	}
	if acted := e.FaultCounts().ActedCreates(); acted != 2 {
		t.Fatalf("%d creates lost their answer, want 2 (the pipeline's and the schedule's)", acted)
	}
}

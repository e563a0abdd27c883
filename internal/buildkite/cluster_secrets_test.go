package buildkite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newCluster creates a cluster through the client and returns its ID.
func newCluster(t *testing.T, c *Client, name string) string {
	t.Helper()
	cl, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return cl.ID
}

func TestClusterSecrets_Emulator(t *testing.T) {
	const value = "s3cr3t-value-1"
	e := newEmulator(t, fakeserver.Options{})
	log := &recordingLogger{}
	c := newTestClient(t, e.url, func(cfg *Config) { cfg.Logger = log })
	ctx := context.Background()
	cl := newCluster(t, c, "Secrets")

	sec, err := c.ClusterSecrets.Create(ctx, cl, ClusterSecretCreate{Key: "DEPLOY_KEY", Value: value,
		Description: ptr("Deploys"), Policy: ptr("- pipeline_slug: app\n")})
	if err != nil {
		t.Fatal(err)
	}
	if sec.Key != "DEPLOY_KEY" || *sec.Description != "Deploys" || *sec.Policy != "- pipeline_slug: app\n" || sec.UpdatedBy != nil {
		t.Errorf("created %+v", sec)
	}
	if sec, err = c.ClusterSecrets.Update(ctx, cl, sec.ID, ClusterSecretUpdate{Description: ptr("")}); err != nil || sec.Description != nil {
		t.Errorf("Update = %+v, %v", sec, err)
	}
	if sec, err = c.ClusterSecrets.UpdateValue(ctx, cl, sec.ID, value+"-rotated"); err != nil || sec.ID == "" || sec.UpdatedBy == nil {
		t.Fatalf("UpdateValue = %+v, %v", sec, err)
	}
	if stored, _ := e.Store().ClusterSecretValue("acme", cl, sec.ID); stored != value+"-rotated" {
		t.Errorf("the value on the service is %q", stored)
	}
	if all, err := c.ClusterSecrets.List(ctx, cl); err != nil || len(all) != 1 {
		t.Errorf("List = %+v, %v", all, err)
	}
	if _, err := c.ClusterSecrets.Create(ctx, cl, ClusterSecretCreate{Key: "DEPLOY_KEY", Value: value}); !IsValidation(err) ||
		strings.Contains(err.Error(), value) {
		t.Errorf("a second secret of the key: %v", err)
	}
	if err := c.ClusterSecrets.Delete(ctx, cl, sec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ClusterSecrets.Get(ctx, cl, sec.ID); !IsNotFound(err) {
		t.Errorf("Get after Delete: %v", err)
	}

	// The bodies that carried the value are logged with it masked; no line holds it.
	masked := 0
	for _, l := range log.all() {
		line := fmt.Sprint(l.msg, l.fields)
		if strings.Contains(line, value) {
			t.Errorf("a %s line holds the secret's value: %s", l.level, line)
		}
		if body, _ := l.fields["body"].(string); strings.Contains(body, `"value":"***"`) {
			masked++
		}
	}
	if masked != 3 {
		t.Errorf("%d bodies logged with the value masked, want 3 (two creates and the new value)", masked)
	}
}

// TestClusterSecrets_refreshThroughListing: reading every secret of a cluster costs its listing.
func TestClusterSecrets_refreshThroughListing(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	cl := newCluster(t, c, "Secrets")
	reader := newTestClient(t, e.url, withListReads)
	readsOneListing(t, e, "/v2/organizations/acme/clusters/"+cl+"/secrets", 10, func(i int) (string, error) {
		sec, err := c.ClusterSecrets.Create(ctx, cl, ClusterSecretCreate{Key: fmt.Sprintf("KEY_%d", i), Value: "v"})
		if err != nil {
			return "", err
		}
		return sec.ID, nil
	}, func(id string) error {
		_, err := reader.ClusterSecrets.Get(ctx, cl, id)
		return err
	})
}

// TestClusterSecrets_lostCreateAdopted: a create that acts and loses its answer is found by its key.
func TestClusterSecrets_lostCreateAdopted(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{Faults: fakeserver.Faults{DropCreates: 1}})
	c := newTestClient(t, e.url)
	cl := newCluster(t, c, "Secrets")
	sec, err := c.ClusterSecrets.Create(context.Background(), cl, ClusterSecretCreate{Key: "K", Value: "v"})
	if err != nil {
		t.Fatal(err)
	}
	if all, err := c.ClusterSecrets.List(context.Background(), cl); err != nil || len(all) != 1 || all[0].ID != sec.ID {
		t.Fatalf("after a lost answer: %+v, %v; want the one secret adopted", all, err)
	}
	if acted := e.FaultCounts().ActedCreates(); acted != 2 {
		t.Fatalf("%d creates lost their answer, want 2", acted)
	}
}

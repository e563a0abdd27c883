package clusters_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goversion "github.com/hashicorp/go-version"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The ephemeral buildkite_cluster_agent_token's tests drive the CLI (cliWorkdir) so that a plan and an apply
// can be counted apart. Ephemeral resources came with Terraform 1.10 and OpenTofu 1.11: the `terraform` on
// PATH (1.11) has them, so these tests run under make testacc, and fail (never skip) under an older CLI.
var ephemeralCLI = acctest.CLIFeature{Name: "ephemeral resources", Terraform: goversion.Must(goversion.NewVersion("1.10.0")), Opentofu: goversion.Must(goversion.NewVersion("1.11.0"))}

// ephemeralWorkdir is a working directory with body under a CLI that has ephemeral resources.
func ephemeralWorkdir(e *acctest.TestEnv, t *testing.T, body string) *acctest.CLIWorkdir {
	t.Helper()
	cli := acctest.TerraformCLI(t)
	info, err := acctest.AskCLI(cli)
	if err != nil {
		t.Fatalf("asking %s its version: %v", cli, err)
	}
	min := ephemeralCLI.Terraform
	if info.Name == "OpenTofu" {
		min = ephemeralCLI.Opentofu
	}
	if info.Version.LessThan(min) {
		t.Fatalf("%s needs %s %s or later; %s is %s", ephemeralCLI.Name, info.Name, min, cli, info.Version)
	}
	return e.WorkdirWith(t, cli, body)
}

// emulatorOnly skips a test in live mode that reads the emulator's request log or store, or sets its clock
// or faults, which the real service has not.
func emulatorOnly(t *testing.T, e *acctest.TestEnv, what string) {
	t.Helper()
	if e.Live {
		t.Skip("live mode: the test " + what + ", which only the emulator can")
	}
}

// tokenTestCluster makes a cluster outside Terraform, so that the ephemeral token's configuration is known
// at plan time and the plan opens it.
func tokenTestCluster(t *testing.T, e *acctest.TestEnv) string {
	t.Helper()
	c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("ephemeral-token")})
	if err != nil {
		t.Fatalf("creating the cluster: %v", err)
	}
	return c.ID
}

// ephemeralTokenConfig hands the ephemeral token to a cluster secret's write-only value (a secret store),
// with extra arguments of the ephemeral block.
func ephemeralTokenConfig(clusterID, extra string) string {
	return fmt.Sprintf(`
ephemeral "buildkite_cluster_agent_token" "run" {
  cluster_id  = %[1]q
  description = "terraform run"
  %[2]s
}

resource "buildkite_cluster_secret" "agent_token" {
  cluster_id       = %[1]q
  key              = "AGENT_TOKEN"
  value_wo         = ephemeral.buildkite_cluster_agent_token.run.token
  value_wo_version = "1"
}
`, clusterID, extra)
}

// tokenCreates counts the cluster token creates the emulator answered 201 since the request log's entry from.
func tokenCreates(e *acctest.TestEnv, from int) (created, total int) {
	reqs := e.Server.Requests()
	for _, r := range reqs[from:] {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/tokens") && strings.Contains(r.Path, "/clusters/") && r.Status == http.StatusCreated {
			created++
		}
	}
	return created, len(reqs)
}

// clusterTokens lists the tokens the cluster holds.
func clusterTokens(t *testing.T, e *acctest.TestEnv, clusterID string) []buildkite.ClusterToken {
	t.Helper()
	tokens, err := e.Client.ClusterTokens.List(context.Background(), clusterID)
	if err != nil {
		t.Fatalf("listing the cluster's tokens: %v", err)
	}
	return tokens
}

// storedSecret is the value the cluster secret AGENT_TOKEN holds in the emulator: the token the apply made.
func storedSecret(t *testing.T, e *acctest.TestEnv, clusterID string) string {
	t.Helper()
	secrets, err := e.Client.ClusterSecrets.List(context.Background(), clusterID)
	if err != nil || len(secrets) != 1 {
		t.Fatalf("listing the cluster's secrets: %v (%d secrets)", err, len(secrets))
	}
	v, ok := e.Server.Store().ClusterSecretValue(e.Org, clusterID, secrets[0].ID)
	if !ok || v == "" {
		t.Fatalf("the cluster secret holds no value")
	}
	return v
}

// agentStatus is what the emulator's agent API answers a request made with token: 200 while it is valid,
// 401 once it is revoked or expired.
func agentStatus(t *testing.T, e *acctest.TestEnv, token string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.URL+"/v3/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("asking the agent API: %v", err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestAccClusterAgentTokenEphemeral_countsAndRevokes measures what the docs say: a plan makes one token, an
// apply two, an apply of a saved plan one, and none leaves one valid. The token the apply handed to the write-only value is the one
// the secret holds, and it is refused once the run is over.
func TestAccClusterAgentTokenEphemeral_countsAndRevokes(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	emulatorOnly(t, e, "counts tokens in the request log")
	clusterID := tokenTestCluster(t, e)
	w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, `expires_in = "10m"`))

	_, from := tokenCreates(e, 0)
	w.MustRun("plan", "-no-color", "-input=false")
	created, from := tokenCreates(e, from)
	if created != 1 {
		t.Errorf("terraform plan made %d tokens, want 1", created)
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 0 {
		t.Errorf("after terraform plan the cluster holds %d tokens, want none", len(left))
	}

	w.Apply()
	if created, _ = tokenCreates(e, from); created != 2 {
		t.Errorf("terraform apply made %d tokens, want 2 (one planning, one applying)", created)
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 0 {
		t.Errorf("after terraform apply the cluster holds %d tokens, want none", len(left))
	}
	if status := agentStatus(t, e, storedSecret(t, e, clusterID)); status != http.StatusUnauthorized {
		t.Errorf("the token the apply stored answers %d after the run, want 401 (revoked)", status)
	}
	// The value is in neither the state nor the saved plan.
	stored := storedSecret(t, e, clusterID)
	_, from = tokenCreates(e, 0)
	w.MustRun("plan", "-no-color", "-input=false", "-out=saved.tfplan")
	created, from = tokenCreates(e, from)
	if created != 1 {
		t.Errorf("terraform plan -out made %d tokens, want 1", created)
	}
	for _, name := range []string{"terraform.tfstate", "saved.tfplan"} {
		raw, err := os.ReadFile(filepath.Join(w.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), stored) {
			t.Errorf("%s holds the token's value", name)
		}
	}
	if shown := w.MustRun("show", "-json", "saved.tfplan"); strings.Contains(shown, stored) {
		t.Errorf("the saved plan shows the token's value")
	}
	w.MustRun("apply", "-no-color", "-input=false", "saved.tfplan")
	created, _ = tokenCreates(e, from)
	if created != 1 {
		t.Errorf("terraform apply of a saved plan made %d tokens, want 1", created)
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 0 {
		t.Errorf("after terraform apply of a saved plan the cluster holds %d tokens, want none", len(left))
	}
}

// TestAccClusterAgentTokenEphemeral_keepUntilExpiry: with keep_until_expiry the tokens stay valid after the
// run, with the configured lifetime, and are refused once it has passed.
func TestAccClusterAgentTokenEphemeral_keepUntilExpiry(t *testing.T) {
	t.Parallel()
	var skew atomic.Int64 // how far the emulator's clock is ahead of the real one
	e := acctest.NewTestEnvWith(t, fakeserver.Options{Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
	emulatorOnly(t, e, "moves the emulator's clock past expires_at")
	clusterID := tokenTestCluster(t, e)
	w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, `expires_in = "5m"
  keep_until_expiry = true`))

	before := time.Now()
	w.Apply()
	left := clusterTokens(t, e, clusterID)
	if len(left) != 2 {
		t.Fatalf("after terraform apply with keep_until_expiry the cluster holds %d tokens, want 2 (the plan's and the apply's)", len(left))
	}
	for _, tok := range left {
		if tok.ExpiresAt == nil || tok.ExpiresAt.Before(before.Add(4*time.Minute)) || tok.ExpiresAt.After(time.Now().Add(5*time.Minute)) {
			t.Errorf("token %s expires at %v, want five minutes after it was made", tok.ID, tok.ExpiresAt)
		}
	}
	stored := storedSecret(t, e, clusterID)
	if status := agentStatus(t, e, stored); status != http.StatusOK {
		t.Errorf("the kept token answers %d before it expires, want 200", status)
	}
	skew.Store(int64(6 * time.Minute))
	if status := agentStatus(t, e, stored); status != http.StatusUnauthorized {
		t.Errorf("the kept token answers %d after expires_at, want 401", status)
	}
}

// TestAccClusterAgentTokenEphemeral_revokeFailureReported: a token that cannot be revoked at the end of the
// run fails the run, naming the token and until when it stays valid; the token is never silently left.
func TestAccClusterAgentTokenEphemeral_revokeFailureReported(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	emulatorOnly(t, e, "injects a fault into the revoke")
	clusterID := tokenTestCluster(t, e)
	w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, ""))
	e.Server.AimFault(fakeserver.AimedFault{Route: "DELETE /v2/organizations/{org}/clusters/{cluster}/tokens/{token}", Kind: fakeserver.FaultServerError})
	out, err := w.Run("plan", "-no-color", "-input=false")
	if err == nil {
		t.Fatalf("terraform plan succeeded though the token could not be revoked:\n%s", out)
	}
	left := clusterTokens(t, e, clusterID)
	if len(left) != 1 {
		t.Fatalf("the cluster holds %d tokens, want the 1 that could not be revoked", len(left))
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(out, "│", " ")), " ")
	for _, want := range []string{"Unable to Revoke Cluster Agent Token", left[0].ID, "stays valid until", left[0].ExpiresAt.UTC().Format(time.RFC3339)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan's output does not say %q:\n%s", want, out)
		}
	}
}

// revokeFirst revokes each token a DELETE names just before that DELETE reaches the emulator, as someone
// revoking it outside Terraform during the run would: the DELETE itself is then answered 404.
func revokeFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && strings.Contains(r.URL.Path, "/tokens/") {
			other := r.Clone(r.Context())
			other.Body = http.NoBody
			next.ServeHTTP(httptest.NewRecorder(), other)
		}
		next.ServeHTTP(w, r)
	})
}

// TestAccClusterAgentTokenEphemeral_revokedOutside: a token revoked outside Terraform before the run ends
// (the revoke answered 404) is no error: the run succeeds and no token is left.
func TestAccClusterAgentTokenEphemeral_revokedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, revokeFirst)
	clusterID := tokenTestCluster(t, e)
	w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, ""))
	if out, err := w.Run("plan", "-no-color", "-input=false"); err != nil {
		t.Fatalf("terraform plan failed though the token it made was only revoked already: %v\n%s", err, out)
	}
	notFound := 0
	for _, r := range e.Server.Requests() {
		if r.Method == http.MethodDelete && strings.Contains(r.Path, "/tokens/") && r.Status == http.StatusNotFound {
			notFound++
		}
	}
	if notFound != 1 {
		t.Errorf("the emulator answered %d revokes with 404, want 1 (the run's own, after the token was revoked outside)", notFound)
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 0 {
		t.Errorf("the cluster holds %d tokens, want none", len(left))
	}
}

// TestAccClusterAgentTokenEphemeral_invalidLifetime: expires_in is checked before anything is made.
func TestAccClusterAgentTokenEphemeral_invalidLifetime(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	emulatorOnly(t, e, "counts tokens in the request log")
	clusterID := tokenTestCluster(t, e)
	for _, c := range []struct{ value, want string }{{"soon", "Invalid Duration"}, {"30s", "Duration Too Short"}} {
		w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, fmt.Sprintf("expires_in = %q", c.value)))
		_, from := tokenCreates(e, 0)
		out, err := w.Run("plan", "-no-color", "-input=false")
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("expires_in = %q: want the plan to fail with %q; it printed:\n%s", c.value, c.want, out)
		}
		if created, _ := tokenCreates(e, from); created != 0 {
			t.Errorf("expires_in = %q: %d tokens made", c.value, created)
		}
	}
}

// TestAccExamples_ephemeralClusterAgentToken applies the docs' example beside the cluster it names: the
// cluster is new, so the plan cannot open the token and makes none; the apply makes one, keeps it
// (terraform.applying) and stores it in the cluster secret, where it is valid.
func TestAccExamples_ephemeralClusterAgentToken(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the example uses a fixed name (a cluster named Platform) that may exist in a real organization")
	}
	var body strings.Builder
	for _, f := range []string{"resources/buildkite_cluster/resource.tf", "ephemeral-resources/buildkite_cluster_agent_token/ephemeral-resource.tf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		body.WriteString("\n# " + f + "\n" + string(b))
	}
	w := ephemeralWorkdir(e, t, body.String())
	w.Apply()
	if created, _ := tokenCreates(e, 0); created != 1 {
		t.Errorf("the example's first apply made %d tokens, want 1 (the plan cannot open a token of a cluster not made yet)", created)
	}
	clusters, err := e.Client.Clusters.List(context.Background())
	if err != nil || len(clusters) == 0 {
		t.Fatalf("listing clusters: %v", err)
	}
	var clusterID string
	for _, c := range clusters {
		if c.Name == "Platform" {
			clusterID = c.ID
		}
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 1 {
		t.Errorf("after the apply the cluster holds %d tokens, want the apply's", len(left))
	}
	if status := agentStatus(t, e, storedSecret(t, e, clusterID)); status != http.StatusOK {
		t.Errorf("the stored token answers %d, want 200 (kept until it expires)", status)
	}
	_, from := tokenCreates(e, 0)
	w.MustRun("plan", "-no-color", "-input=false")
	if left := clusterTokens(t, e, clusterID); len(left) != 1 {
		t.Errorf("after a plan the cluster holds %d tokens, want only the apply's (the plan's is revoked)", len(left))
	}
	if created, _ := tokenCreates(e, from); created != 1 {
		t.Errorf("the plan made %d tokens, want 1", created)
	}
}

// TestAccClusterAgentTokenEphemeral_lostCreateAnswer: a create whose answer is lost made a token whose value
// nobody knows; it is revoked and the create made again, so the run ends with no token left valid.
func TestAccClusterAgentTokenEphemeral_lostCreateAnswer(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	emulatorOnly(t, e, "drops the create's answer")
	clusterID := tokenTestCluster(t, e)
	w := ephemeralWorkdir(e, t, ephemeralTokenConfig(clusterID, ""))
	e.Server.AimFault(fakeserver.AimedFault{Route: "POST /v2/organizations/{org}/clusters/{cluster}/tokens", Kind: fakeserver.FaultDropAfter, Times: 1})
	w.MustRun("plan", "-no-color", "-input=false")
	if created, _ := tokenCreates(e, 0); created != 1 {
		t.Errorf("the emulator answered %d creates, want 1 beside the one whose answer was lost", created)
	}
	if left := clusterTokens(t, e, clusterID); len(left) != 0 {
		t.Errorf("after the plan the cluster holds %d tokens, want none (the lost one revoked, the other at close)", len(left))
	}
}

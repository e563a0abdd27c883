package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// A create whose answer is lost adopts (or, for a secret, deletes and makes again) only the one object that
// did not exist before it was sent and that no other create of the provider returned: never another token
// of the same description that this configuration manages. The faults are aimed at one create.

// lostTokenCase is a token type whose instances may share a description, created count times.
type lostTokenCase struct {
	name, typ string
	// fault is the aimed fault that loses one create's answer (Route or Operation).
	fault fakeserver.AimedFault
	// config is the configuration of count tokens described description, and what they need.
	config func(prefix, description string, count int) string
	// tokens lists the service's live tokens of the description, and revokes how many were revoked or deleted.
	tokens  func(e *acctest.TestEnv, description string) ([]string, error)
	revokes func(e *acctest.TestEnv) int
}

var lostTokenCases = []lostTokenCase{
	{
		name: "agent token", typ: "buildkite_agent_token",
		fault: fakeserver.AimedFault{Operation: "createAgentToken"},
		config: func(_, description string, count int) string {
			return fmt.Sprintf("resource \"buildkite_agent_token\" \"t\" {\n  count       = %d\n  description = %q\n}\n", count, description)
		},
		tokens: func(e *acctest.TestEnv, description string) ([]string, error) {
			all, err := e.Client.AgentTokens.List(context.Background())
			var ids []string
			for _, t := range all {
				if t.Description != nil && *t.Description == description && !t.Revoked() {
					ids = append(ids, t.UUID)
				}
			}
			return ids, err
		},
		revokes: func(e *acctest.TestEnv) int {
			n := 0
			for _, r := range e.Server.Requests() {
				if r.Operation == "revokeAgentToken" {
					n++
				}
			}
			return n
		},
	},
	{
		name: "cluster agent token", typ: "buildkite_cluster_agent_token",
		fault: fakeserver.AimedFault{Route: "POST /v2/organizations/{org}/clusters/{cluster}/tokens"},
		config: func(prefix, description string, count int) string {
			return fmt.Sprintf("resource \"buildkite_cluster\" \"c\" {\n  name = %q\n}\n\n"+
				"resource \"buildkite_cluster_agent_token\" \"t\" {\n  count       = %d\n  cluster_id  = buildkite_cluster.c.id\n  description = %q\n}\n",
				prefix, count, description)
		},
		tokens: func(e *acctest.TestEnv, description string) ([]string, error) {
			clusters, err := e.Client.Clusters.List(context.Background())
			var ids []string
			for _, c := range clusters {
				toks, terr := e.Client.ClusterTokens.List(context.Background(), c.ID)
				if terr != nil {
					return nil, terr
				}
				for _, t := range toks {
					if t.Description == description {
						ids = append(ids, t.ID)
					}
				}
			}
			return ids, err
		},
		revokes: func(e *acctest.TestEnv) int { return deletesOf(e, "/clusters/", "/tokens/") },
	},
	{
		name: "registry token", typ: "buildkite_registry_token",
		fault: fakeserver.AimedFault{Route: "POST /v2/packages/organizations/{org}/registries/{registry}/tokens"},
		config: func(prefix, description string, count int) string {
			return fmt.Sprintf("resource \"buildkite_registry\" \"r\" {\n  name      = %q\n  ecosystem = \"ruby\"\n}\n\n"+
				"resource \"buildkite_registry_token\" \"t\" {\n  count       = %d\n  registry_id = buildkite_registry.r.id\n  description = %q\n}\n",
				prefix, count, description)
		},
		tokens:  registryTokensDescribed,
		revokes: func(e *acctest.TestEnv) int { return deletesOf(e, "/registries/", "/tokens/") },
	},
}

// registryTokensDescribed lists the IDs of the tokens of every registry that have description.
func registryTokensDescribed(e *acctest.TestEnv, description string) ([]string, error) {
	regs, err := e.Client.Registries.List(context.Background())
	var ids []string
	for _, r := range regs {
		toks, terr := e.Client.RegistryTokens.List(context.Background(), r.Slug)
		if terr != nil {
			return nil, terr
		}
		for _, t := range toks {
			if t.Description == description {
				ids = append(ids, t.ID)
			}
		}
	}
	return ids, err
}

// deletesOf counts the DELETEs the emulator served whose path holds every one of parts.
func deletesOf(e *acctest.TestEnv, parts ...string) int {
	n := 0
	for _, r := range e.Server.Requests() {
		if r.Method != http.MethodDelete {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(r.Path, p)
		}
		if all {
			n++
		}
	}
	return n
}

// checkTokens checks that the service holds exactly want live tokens of the description, each in state
// with its secret, and that none was revoked.
func (c *lostTokenCase) checkTokens(e *acctest.TestEnv, description string, want int) resource.TestCheckFunc {
	return func(st *terraform.State) error {
		ids, err := c.tokens(e, description)
		if err != nil {
			return err
		}
		if len(ids) != want {
			return fmt.Errorf("the service holds %d live tokens described %q (%v), want %d", len(ids), description, ids, want)
		}
		inState := map[string]bool{}
		for addr, rs := range st.RootModule().Resources {
			if rs.Type != c.typ {
				continue
			}
			if rs.Primary.Attributes["token"] == "" {
				return fmt.Errorf("%s has no secret", addr)
			}
			inState[rs.Primary.Attributes["id"]] = true
		}
		for _, id := range ids {
			if !inState[id] {
				return fmt.Errorf("token %s is live on the service but not in state (state holds %v)", id, inState)
			}
		}
		if n := c.revokes(e); n != 0 {
			return fmt.Errorf("%d tokens revoked or deleted, want none", n)
		}
		if fc := e.Server.FaultCounts(); fc.DropBefore != 1 {
			return fmt.Errorf("faults %+v: want exactly one create dropped before the service acted", fc)
		}
		return nil
	}
}

// TestAccLostCreate_sameDescription: three tokens of one description, made with count; the create of one of
// them is dropped before it reaches the service. The apply creates it once more and succeeds: exactly three
// tokens exist, each in state with its secret, none of the others was revoked, and the next plan is empty.
func TestAccLostCreate_sameDescription(t *testing.T) {
	t.Parallel()
	for _, c := range lostTokenCases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			fault := c.fault
			fault.Kind, fault.Skip, fault.Times = fakeserver.FaultDropBefore, 1, 1
			e := acctest.NewTestEnvWith(t, fakeserver.Options{Faults: fakeserver.Faults{Aimed: []fakeserver.AimedFault{fault}}})
			if e.Live {
				t.Skip("faults are an emulator setting")
			}
			prefix := e.Name("lost")
			description := prefix + "-ci"
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps: []resource.TestStep{{
					Config:           e.Config(c.config(prefix, description, 3)),
					Check:            c.checkTokens(e, description, 3),
					ConfigPlanChecks: acctest.ExpectEmpty(),
				}},
			})
		})
	}
}

// TestAccLostCreate_registryTokenAnswerLost: a registry token's create acts and its answer is lost, beside
// another token of this configuration with the same description. The other token is not touched; the one
// the lost create made is deleted and made once more, for its secret, and recorded: nothing is left valid
// and untracked.
func TestAccLostCreate_registryTokenAnswerLost(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("faults are an emulator setting")
	}
	prefix := e.Name("lost")
	description := prefix + "-ci"
	config := func(names ...string) string {
		out := fmt.Sprintf("resource \"buildkite_registry\" \"r\" {\n  name      = %q\n  ecosystem = \"ruby\"\n}\n", prefix)
		for _, n := range names {
			out += fmt.Sprintf("\nresource \"buildkite_registry_token\" %q {\n  registry_id = buildkite_registry.r.id\n  description = %q\n}\n", n, description)
		}
		return out
	}
	var first string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry_token"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(config("first")),
				Check: func(st *terraform.State) error {
					first = st.RootModule().Resources["buildkite_registry_token.first"].Primary.Attributes["id"]
					return nil
				},
			},
			{
				PreConfig: func() {
					e.Server.AimFault(fakeserver.AimedFault{
						Route: "POST /v2/packages/organizations/{org}/registries/{registry}/tokens",
						Kind:  fakeserver.FaultDropAfter, Times: 1,
					})
				},
				Config: e.Config(config("first", "second")),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet("buildkite_registry_token.second", "token"),
					func(st *terraform.State) error {
						if got := st.RootModule().Resources["buildkite_registry_token.first"].Primary.Attributes["id"]; got != first {
							return fmt.Errorf("the first token is now %s, was %s", got, first)
						}
						if n := deletesOf(e, "/tokens/"+first); n != 0 {
							return fmt.Errorf("the first token was deleted %d times", n)
						}
						if n := deletesOf(e, "/registries/", "/tokens/"); n != 1 {
							return fmt.Errorf("%d tokens deleted, want 1: the one the lost create made, made once more for its secret", n)
						}
						if fc := e.Server.FaultCounts(); fc.DropAfter != 1 {
							return fmt.Errorf("faults %+v: want exactly one create answer lost after the service acted", fc)
						}
						ids, err := registryTokensDescribed(e, description)
						if err != nil || len(ids) != 2 {
							return fmt.Errorf("the service holds %v (%w), want the two tokens in state", ids, err)
						}
						return nil
					},
					e.CheckServiceMatchesState,
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

// TestAccLostCreate_twoNewTokensFail: while a cluster agent token's create acts and loses its answer, someone
// else makes a token of the same description in the cluster. Which of the two new tokens the create made
// cannot be told: the apply fails naming both, and neither is revoked. Once the user has deleted them, as the
// error says, the next apply creates the token.
func TestAccLostCreate_twoNewTokensFail(t *testing.T) {
	t.Parallel()
	var e *acctest.TestEnv
	var fired atomic.Bool
	var description string
	var others []string
	// someoneElse makes a token of the description in the cluster, as the first create of one reaches the
	// service (its own create passes through here too, after fired is set).
	someoneElse := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			parts := strings.Split(r.URL.Path, "/")
			if r.Method == http.MethodPost && len(parts) == 7 && parts[4] == "clusters" && parts[6] == "tokens" &&
				fired.CompareAndSwap(false, true) {
				tok, err := e.Client.ClusterTokens.Create(r.Context(), parts[5], buildkite.ClusterTokenCreate{Description: description})
				if err != nil {
					t.Errorf("someone else's token: %v", err)
				} else {
					others = append(others, tok.ID)
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	e = acctest.NewTestEnvWith(t, fakeserver.Options{Faults: fakeserver.Faults{Aimed: []fakeserver.AimedFault{{
		Route: "POST /v2/organizations/{org}/clusters/{cluster}/tokens", Kind: fakeserver.FaultDropAfter, Skip: 1, Times: 1,
	}}}}, someoneElse)
	prefix := e.Name("lost")
	description = prefix + "-ci"
	config := e.Config(lostTokenCases[1].config(prefix, description, 1))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_agent_token"),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: acctest.Wrapped("2 objects that match it and did not exist before it was sent were found"),
			},
			{
				// The user deletes both, as the error says, and applies again.
				PreConfig: func() {
					ids, err := lostTokenCases[1].tokens(e, description)
					if err != nil || len(ids) != 2 || len(others) != 1 || !slices.Contains(ids, others[0]) {
						t.Errorf("after the failed apply the service holds %v (%v), want two tokens, %v among them", ids, err, others)
					}
					if n := deletesOf(e, "/clusters/", "/tokens/"); n != 0 {
						t.Errorf("%d tokens revoked by the failed apply, want none", n)
					}
					clusters, err := e.Client.Clusters.List(context.Background())
					if err != nil {
						t.Fatal(err)
					}
					for _, c := range clusters {
						for _, id := range ids {
							_ = e.Client.ClusterTokens.Delete(context.Background(), c.ID, id)
						}
					}
				},
				Config:           config,
				Check:            resource.ComposeAggregateTestCheckFunc(e.CheckServiceMatchesState),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

// TestAccLostCreate_takeoverStaysTheResourcesStep: a pipeline created with a team already gives that team
// access; buildkite_pipeline_team for the pair takes it over after the service's 422. With its create
// dropped before the service acted, the access that existed before is not taken for what the create made:
// the create is sent once more, refused as taken, and the resource's takeover sets the access it asks for.
func TestAccLostCreate_takeoverStaysTheResourcesStep(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{})
	if e.Live {
		t.Skip("faults are an emulator setting")
	}
	team := e.SeedTeam(e.Name("lost-takeover"))
	p := e.SeedPipeline(buildkite.PipelineCreate{Name: e.Name("lost-takeover"), Teams: map[string]string{team.ID: "manage_build_and_read"}})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				e.Server.AimFault(fakeserver.AimedFault{
					Route: "POST /v2/organizations/{org}/teams/{team}/pipelines/", Kind: fakeserver.FaultDropBefore, Times: 1,
				})
			},
			Config: e.Config(fmt.Sprintf("resource \"buildkite_pipeline_team\" \"test\" {\n  team_id      = %q\n  pipeline_id  = %q\n  access_level = \"read_only\"\n}\n", team.ID, p.ID)),
			Check: resource.ComposeAggregateTestCheckFunc(
				func(*terraform.State) error {
					tp, err := e.Client.TeamPipelines.Get(context.Background(), team.ID, p.ID)
					if err != nil || tp.AccessLevel != "read_only" {
						return fmt.Errorf("the team's access on the service: %+v, %w; want read_only", tp, err)
					}
					if fc := e.Server.FaultCounts(); fc.DropBefore != 1 {
						return fmt.Errorf("faults %+v: want the create dropped once before the service acted", fc)
					}
					return nil
				},
			),
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkAgentTokensRevoked is the CheckDestroy of agent tokens: the service keeps a revoked token, so
// destroyed means revoked (or gone).
func (e *TestEnv) CheckAgentTokensRevoked() resource.TestCheckFunc {
	return func(st *terraform.State) error {
		for _, rs := range st.RootModule().Resources {
			if rs.Type != "buildkite_agent_token" {
				continue
			}
			tok, err := e.Client.AgentTokens.Get(context.Background(), rs.Primary.Attributes["id"])
			switch {
			case buildkite.IsNotFound(err):
			case err != nil:
				return err
			case !tok.Revoked():
				return fmt.Errorf("agent token %s is still live after destroy", rs.Primary.ID)
			}
		}
		return nil
	}
}

// checkDefaultQueueDestroyed fails while a cluster still has the default queue a destroyed resource set.
func (e *TestEnv) CheckDefaultQueueDestroyed(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "buildkite_cluster_default_queue" {
			continue
		}
		clusterID := kit.CanonicalID(rs.Primary.Attributes["cluster_id"])
		found, err := e.Exists("buildkite_cluster", map[string]string{"id": clusterID})
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		q, err := e.DefaultQueueOf(clusterID)
		if err != nil {
			return err
		}
		if q != "" {
			return fmt.Errorf("cluster %s still has default queue %s after destroy", clusterID, q)
		}
	}
	return nil
}

const SecretAddr = "buildkite_cluster_secret.test"

// checkSecretValue asks the emulator (the API never answers it) for the value of the secret in state.
func (e *TestEnv) CheckSecretValue(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if e.Live {
			return nil
		}
		rs, ok := s.RootModule().Resources[SecretAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", SecretAddr)
		}
		got, ok := e.Server.Store().ClusterSecretValue(e.Org, rs.Primary.Attributes["cluster_id"], rs.Primary.ID)
		if !ok || got != want {
			return fmt.Errorf("the service holds the value %q (found: %t), want %q", got, ok, want)
		}
		return nil
	}
}

// allowlistLine sets allowed_api_ip_addresses.
func AllowlistLine(ips ...string) string {
	data, _ := json.Marshal(ips)
	return "allowed_api_ip_addresses = " + string(data)
}

// checkAllowlistRemoved is the CheckDestroy of buildkite_organization: destroying it removes the allowlist.
func (e *TestEnv) CheckAllowlistRemoved(*terraform.State) error {
	s, err := e.Client.OrgSettings.GetAPISettings(context.Background())
	if err != nil {
		return err
	}
	if ips := s.AllowedIPs(); len(ips) > 0 {
		return fmt.Errorf("the allowlist %v survived destroy", ips)
	}
	return nil
}

// checkRuleDetails checks, through GraphQL, buildkite_organization_rule.test's description (nil: none) and conditions on the
// service.
func (e *TestEnv) CheckRuleDetails(description any, conditions []string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[RuleAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", RuleAddr)
		}
		d, err := e.Client.Rules.Details(context.Background(), rs.Primary.Attributes["uuid"])
		if err != nil {
			return err
		}
		switch want := description.(type) {
		case nil:
			if d.Description != nil {
				return fmt.Errorf("description on the service = %q, want none", *d.Description)
			}
		case string:
			if d.Description == nil || *d.Description != want {
				return fmt.Errorf("description on the service = %v, want %q", d.Description, want)
			}
		}
		value, err := d.Value()
		if err != nil {
			return err
		}
		var v struct {
			Conditions []string `json:"conditions"`
		}
		if err := json.Unmarshal(value, &v); err != nil {
			return err
		}
		if len(v.Conditions) != len(conditions) || (len(conditions) > 0 && !reflect.DeepEqual(v.Conditions, conditions)) {
			return fmt.Errorf("conditions on the service = %q, want %q", v.Conditions, conditions)
		}
		return nil
	}
}

const RuleAddr = "buildkite_organization_rule.test"

const PipelineAddr = "buildkite_pipeline.test"

// pipelineAttr reads an attribute of the pipeline in state.
func PipelineAttr(s *terraform.State, attr string) string {
	rs, ok := s.RootModule().Resources[PipelineAddr]
	if !ok {
		return ""
	}
	return rs.Primary.Attributes[attr]
}

// livePipeline reads the pipeline behind the state from the service.
func (e *TestEnv) LivePipeline(s *terraform.State) (*buildkite.Pipeline, error) {
	return e.Client.Pipelines.Find(context.Background(), PipelineAttr(s, "id"), PipelineAttr(s, "slug"))
}

// checkPipeline checks the pipeline on the service.
func (e *TestEnv) CheckPipeline(check func(p *buildkite.Pipeline) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		p, err := e.LivePipeline(s)
		if err != nil {
			return err
		}
		return check(p)
	}
}

func StateIs(attr string, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(PipelineAddr, tfjsonpath.New(attr), v)
}

const TemplateAddr = "buildkite_pipeline_template.test"

// duplicateFirstListed makes the emulator's listing at a path ending in suffix answer its first item twice,
// the second time changed by edit: the one way to have two teams with one slug or two members with one
// e-mail address, which the service itself never allows, so "more than one" can be tested.
func DuplicateFirstListed(suffix string, edit func(map[string]any)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, suffix) {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			var items []map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &items); err == nil && len(items) > 0 {
				dup := map[string]any{}
				for k, v := range items[0] {
					dup[k] = v
				}
				edit(dup)
				items = append(items, dup)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			b, _ := json.Marshal(items)
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = io.Copy(w, bytes.NewReader(b))
		})
	}
}

// defaultQueueOf asks the service for a cluster's default queue.
func (e *TestEnv) DefaultQueueOf(clusterID string) (string, error) {
	if !e.Live {
		q, ok := e.Server.Store().ClusterDefaultQueueID(e.Org, clusterID)
		if !ok {
			return "", fmt.Errorf("cluster %s is not in the emulator's store", clusterID)
		}
		return q, nil
	}
	c, err := e.Client.Clusters.Get(context.Background(), clusterID)
	if err != nil {
		return "", err
	}
	return kit.Deref(c.DefaultQueueID), nil
}

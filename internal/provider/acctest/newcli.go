package acctest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-exec/tfexec"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// The identity (*_identity_test.go) and query (*_query_test.go) acceptance tests need a newer CLI than the
// `terraform` on PATH: `make testacc-next` builds bin/terraform-1.16 and runs them with TF_ACC_TERRAFORM_PATH
// pointing at it, and `make test` runs that target.

const envTerraformPath = "TF_ACC_TERRAFORM_PATH"

// cliFeature is what a test needs of the CLI: the first Terraform and OpenTofu versions that have it (nil:
// none has).
type CLIFeature struct {
	Name                string
	Terraform, Opentofu *goversion.Version
}

var (
	// identityCLI: resource identity and import blocks that name one.
	IdentityCLI = CLIFeature{"import by identity", goversion.Must(goversion.NewVersion("1.12.0")), goversion.Must(goversion.NewVersion("1.12.0"))}
	// queryCLI: list resources and `terraform query`, which OpenTofu does not have (1.12).
	QueryCLI = CLIFeature{"terraform query", goversion.Must(goversion.NewVersion("1.14.0")), nil}
)

// cliInfo is what a CLI binary says of itself.
type cliInfo struct {
	Name    string // "Terraform" or "OpenTofu"
	Version *goversion.Version
}

var cliInfos sync.Map // path -> cliInfo, asked once per binary

// requireAcc skips t unless TF_ACC is set, as resource.Test does: a test that starts Terraform is an
// acceptance test, so that a plain `go test ./...` runs the unit tests only. make test, make testacc and
// make testacc-next set TF_ACC, so there these tests never skip.
func RequireAcc(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance test (it starts Terraform): set %s=1, as make testacc does", resource.EnvTfAcc)
	}
}

// terraformCLI is the CLI a test drives itself rather than through resource.Test: TF_ACC_TERRAFORM_PATH, or
// else `terraform` on PATH. It skips t unless TF_ACC is set (requireAcc).
func TerraformCLI(t *testing.T) string {
	t.Helper()
	RequireAcc(t)
	if p := os.Getenv(envTerraformPath); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("this test runs the Terraform CLI, and none is on PATH (or in %s): %v", envTerraformPath, err)
	}
	return p
}

// requireCLI returns the CLI that TF_ACC_TERRAFORM_PATH names once it has the feature. It skips the test,
// saying how to run it, only when the variable is unset; a variable that names no working CLI, or one
// without the feature, fails the test.
func RequireCLI(t *testing.T, feature CLIFeature) string {
	t.Helper()
	RequireAcc(t)
	if feature.Name == QueryCLI.Name && os.Getenv(EnvLive) != "" {
		// The list resources filter by exact name at most, so an unfiltered list block finds every object of
		// its kind: a real organization's, and those of the tests running beside this one.
		t.Skip("live mode: the query tests count and import everything an unfiltered list block finds, which only an organization holding nothing but this test's objects (the emulator's) makes exact")
	}
	p := os.Getenv(envTerraformPath)
	if p == "" {
		t.Skipf("%s needs Terraform %s or later and %s is unset: run `make testacc-next`, which builds bin/terraform-1.16 and runs this test under it", feature.Name, feature.Terraform, envTerraformPath)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatalf("%s=%q: %v", envTerraformPath, p, err)
	}
	v, ok := cliInfos.Load(abs)
	if !ok {
		info, err := AskCLI(abs)
		if err != nil {
			t.Fatalf("%s=%q does not name a working Terraform CLI: %v", envTerraformPath, p, err)
		}
		v, _ = cliInfos.LoadOrStore(abs, info)
	}
	info := v.(cliInfo)
	min := feature.Terraform
	if info.Name == "OpenTofu" {
		min = feature.Opentofu
	}
	if min == nil {
		t.Fatalf("%s=%q is %s %s, which has no %s", envTerraformPath, p, info.Name, info.Version, feature.Name)
	}
	if info.Version.LessThan(min) {
		t.Fatalf("%s needs %s %s or later, and %s=%q is %s %s", feature.Name, info.Name, min, envTerraformPath, p, info.Name, info.Version)
	}
	return abs
}

var cliVersionLine = regexp.MustCompile(`^(Terraform|OpenTofu) v(\S+)`)

func AskCLI(path string) (cliInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return cliInfo{}, err
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return cliInfo{}, fmt.Errorf("not an executable file")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "version").Output()
	if err != nil {
		return cliInfo{}, fmt.Errorf("%s version: %w", path, err)
	}
	m := cliVersionLine.FindStringSubmatch(string(out))
	if m == nil {
		return cliInfo{}, fmt.Errorf("%s version printed %q", path, strings.SplitN(string(out), "\n", 2)[0])
	}
	v, err := goversion.NewVersion(m[2])
	if err != nil {
		return cliInfo{}, err
	}
	return cliInfo{Name: m[1], Version: v}, nil
}

// expectIdentity checks that the identity of the resource at address holds the state attributes of the
// same names.
func ExpectIdentity(address string, attrs ...string) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, len(attrs))
	for i, a := range attrs {
		checks[i] = statecheck.ExpectIdentityValueMatchesState(address, tfjsonpath.New(a))
	}
	return checks
}

// identityImportSteps import the resource at address, applied by the steps before, with an import block
// that names its identity: once into the configuration as it stands, which must then plan empty, and once
// with -generate-config-out, whose configuration must plan empty too.
func IdentityImportSteps(address string) []resource.TestStep {
	return []resource.TestStep{
		{
			ResourceName:    address,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		},
		{
			ResourceName:    address,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
			GenerateConfig:  true,
		},
	}
}

// identityOf builds the identity map a query check expects, each value exact.
func IdentityOf(kv ...string) map[string]knownvalue.Check {
	m := make(map[string]knownvalue.Check, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = knownvalue.StringExact(kv[i+1])
	}
	return m
}

// queryImport does what the "Import an existing organization" guide tells a user to do, in a fresh
// directory: `terraform query -generate-config-out` over the list blocks of query, then `terraform apply`
// of what it wrote, which must import exactly want resources, then `terraform plan`, which must be empty.
// terraform-plugin-testing has no step for -generate-config-out of a query, so the CLI is driven directly,
// with the provider served in-process as the other steps serve it. It returns the requests the query made
// of the emulator (none in live mode).
func (e *TestEnv) QueryImport(t *testing.T, query string, want int) []fakeserver.Request {
	t.Helper()
	tf, reattach := e.QueryWorkdir(t, query)
	dir := tf.WorkingDir()
	ctx := context.Background()
	before := e.RequestCount()
	logs, err := tf.QueryJSON(ctx, tfexec.Reattach(reattach), tfexec.GenerateConfigOut("generated.tf"))
	if err != nil {
		t.Fatalf("terraform query: %v", err)
	}
	var problems []string
	for msg := range logs {
		if msg.Err != nil {
			t.Fatalf("terraform query: %v", msg.Err)
		}
		if msg.Msg != nil && msg.Msg.Level() == "error" {
			problems = append(problems, msg.Msg.Message())
		}
	}
	if len(problems) > 0 {
		t.Fatalf("terraform query reported errors:\n%s", strings.Join(problems, "\n"))
	}
	var calls []fakeserver.Request
	if !e.Live {
		calls = e.Server.Requests()[before:]
	}
	generated, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("terraform query -generate-config-out wrote nothing: %v", err)
	}
	t.Logf("generated configuration:\n%s", generated)
	if n := countImports(generated); n != want {
		t.Fatalf("the generated configuration has %d import blocks, want %d", n, want)
	}

	beforeApply := e.RequestCount()
	if err := tf.Apply(ctx, tfexec.Reattach(reattach)); err != nil {
		t.Fatalf("terraform apply of the generated configuration: %v", err)
	}
	// The generated configuration must say what the import reads: its apply imports and changes nothing.
	if !e.Live {
		for _, r := range e.Server.Requests()[beforeApply:] {
			// GraphQL reads (a pipeline's emoji and color, a rule's description) are POSTs to /v1; what a
			// GraphQL write would change, the empty plan below and the resource count still catch.
			if r.Method != http.MethodGet && r.Path != "/v1" {
				t.Errorf("the apply of the generated configuration sent %s %s: the configuration differs from what the import read", r.Method, r.Path)
			}
		}
	}
	state, err := tf.Show(ctx, tfexec.Reattach(reattach))
	if err != nil {
		t.Fatalf("terraform show: %v", err)
	}
	if got := len(state.Values.RootModule.Resources); got != want {
		t.Fatalf("the apply imported %d resources, want %d", got, want)
	}
	changed, err := tf.Plan(ctx, tfexec.Reattach(reattach), tfexec.Out("after.tfplan"))
	if err != nil {
		t.Fatalf("terraform plan after the import: %v", err)
	}
	if changed {
		diff, _ := tf.ShowPlanFileRaw(ctx, "after.tfplan", tfexec.Reattach(reattach))
		t.Fatalf("the plan after importing the generated configuration is not empty:\n%s", diff)
	}
	return calls
}

// queryWorkdir is a fresh directory with the provider's configuration and the list blocks of query, where
// `terraform init` has run against the provider served in this process.
func (e *TestEnv) QueryWorkdir(t *testing.T, query string) (*tfexec.Terraform, tfexec.ReattachInfo) {
	t.Helper()
	cli := RequireCLI(t, QueryCLI)
	dir := t.TempDir()
	for name, content := range map[string]string{"main.tf": e.Config(""), "search.tfquery.hcl": query} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf, err := tfexec.NewTerraform(dir, cli)
	if err != nil {
		t.Fatal(err)
	}
	reattach := e.ServeInProcess(t)
	if err := tf.Init(context.Background(), tfexec.Reattach(reattach)); err != nil {
		t.Fatalf("terraform init: %v", err)
	}
	return tf, reattach
}

func (e *TestEnv) RequestCount() int {
	if e.Live {
		return 0
	}
	return len(e.Server.Requests())
}

var importBlock = regexp.MustCompile(`(?m)^import \{`)

func countImports(config []byte) int { return len(importBlock.FindAll(config, -1)) }

// serveInProcess serves the provider in this process for a CLI started by the test, as terraform-plugin-
// testing does for its own steps, until the test ends.
func (e *TestEnv) ServeInProcess(t *testing.T) tfexec.ReattachInfo {
	t.Helper()
	host := os.Getenv("TF_ACC_PROVIDER_HOST")
	if host == "" {
		host = "registry.terraform.io"
	}
	namespace := os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if namespace == "" {
		namespace = "hashicorp"
	}
	return e.serveInProcessAt(t, host+"/"+namespace+"/buildkite")
}

// serveInProcessAt is serveInProcess under a given provider address, such as the one a configuration's
// required_providers names.
func (e *TestEnv) serveInProcessAt(t *testing.T, addr string) tfexec.ReattachInfo {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	configCh := make(chan *goplugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	factory := NewProtocol6Server("test") // as main.go serves it
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve(addr, func() tfprotov6.ProviderServer { return factory() },
			tf6server.WithDebug(ctx, configCh, closeCh),
			// As terraform-plugin-testing serves it: go-plugin's own log discarded, the provider's logs
			// sent where TF_ACC_LOG_PATH and TF_LOG_SDK say rather than to stderr.
			tf6server.WithGoPluginLogger(hclog.New(&hclog.LoggerOptions{Level: hclog.Trace, Output: io.Discard})),
			tf6server.WithoutLogStderrOverride(),
			tf6server.WithLoggingSink(t))
	}()
	t.Cleanup(func() {
		cancel()
		<-closeCh
	})
	var cfg *goplugin.ReattachConfig
	select {
	case cfg = <-configCh:
	case err := <-serveErr:
		t.Fatalf("serving the provider: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the provider server did not start within a minute")
	}
	return tfexec.ReattachInfo{addr: tfexec.ReattachConfig{
		Protocol:        string(cfg.Protocol),
		ProtocolVersion: cfg.ProtocolVersion,
		Pid:             cfg.Pid,
		Test:            cfg.Test,
		Addr:            tfexec.ReattachConfigAddr{Network: cfg.Addr.Network(), String: cfg.Addr.String()},
	}}
}

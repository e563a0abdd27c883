package provider

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/cpuprofile"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The wall-time benchmark (issue 18, item 6): plan, apply and destroy of 300 objects (100 clusters, each
// with a queue and an agent token) with this provider against the emulator, and with a no-op
// terraform-plugin-framework provider of the same graph (internal/cmd/noopprovider), which answers from
// memory: the ratio of the two is what the provider adds to what Terraform takes anyway. Both run as
// users run them, as built binaries that Terraform starts through dev_overrides, and the rounds
// alternate which goes first, so that both share the machine's noise. The emulator runs in this process
// with its rate limit off (its headers always report a full window): this measures overhead, not the
// limit. It prints each phase's median wall time for both and the ratio, the CPU time of Terraform with
// its providers and of the emulator, and the API calls:
//
//	BUILDKITE_BENCH=1 [BUILDKITE_BENCH_ROUNDS=5] [BUILDKITE_BENCH_CLUSTERS=100] [BUILDKITE_BENCH_PROFILE=dir] \
//	  [TF_ACC_TERRAFORM_PATH=terraform] go test -run TestBench_wallTimeAgainstNoop -v ./internal/provider/
//
// With BUILDKITE_BENCH_PROFILE, every provider process writes a CPU profile into dir/<provider>/<phase>/
// (see internal/cpuprofile), and the test prints each provider's CPU per phase and the top of this
// provider's profile. TF_LOG and TF_LOG_PATH pass through to Terraform, for the timestamps of its calls.
const (
	envBenchRounds   = "BUILDKITE_BENCH_ROUNDS"
	envBenchClusters = "BUILDKITE_BENCH_CLUSTERS"
	envBenchProfile  = "BUILDKITE_BENCH_PROFILE"
)

// The phases, in the order each round runs them.
var wallPhases = []string{"apply", "plan", "destroy"}

// wallSubject is one provider under measurement: its configuration and what it measured, per phase.
type wallSubject struct {
	name   string   // "buildkite", "noop" or "noop-quiet"
	config string   // the configuration of the 300 objects
	env    []string // what the subject's runs add to the environment
	wall   map[string][]time.Duration
	cpu    map[string][]time.Duration // Terraform and its provider processes, user + system
	emu    map[string][]time.Duration // the emulator (this process), user + system
	calls  map[string][]int           // API calls the emulator answered
	conns  map[string][]int           // TCP connections the emulator accepted
}

func newWallSubject(name, config string, env ...string) *wallSubject {
	return &wallSubject{name: name, config: config, env: env, wall: map[string][]time.Duration{},
		cpu: map[string][]time.Duration{}, emu: map[string][]time.Duration{}, calls: map[string][]int{}, conns: map[string][]int{}}
}

func TestBench_wallTimeAgainstNoop(t *testing.T) {
	if os.Getenv(acctest.EnvBench) == "" {
		t.Skipf("set %s=1 to measure (make bench)", acctest.EnvBench)
	}
	rounds := acctest.BenchInt(t, os.Getenv(envBenchRounds), 5)
	clusters := acctest.BenchInt(t, os.Getenv(envBenchClusters), 100)
	tf := acctest.TerraformCLI(t)
	if os.Getenv(acctest.EnvLive) != "" {
		t.Skip("the benchmark runs against the emulator")
	}
	// RateLimit 0: not enforced, every answer reports a full window. The connections it accepts are counted:
	// a client that cannot keep its connections dials again.
	const org, token = "acme", "test-token"
	emulator := fakeserver.New(fakeserver.Options{Org: org, Token: token})
	var conns atomic.Int64
	ts := httptest.NewUnstartedServer(emulator)
	ts.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)

	bin := t.TempDir()
	goBuild(t, filepath.Join(bin, "buildkite", "terraform-provider-buildkite"), "github.com/ci-rest/terraform-provider-buildkite")
	goBuild(t, filepath.Join(bin, "noop", "terraform-provider-noop"), "github.com/ci-rest/terraform-provider-buildkite/internal/cmd/noopprovider")
	rc := filepath.Join(bin, "terraformrc")
	writeFile(t, rc, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/ci-rest/buildkite" = %q
    "registry.terraform.io/bench/noop"        = %q
  }
  direct {}
}
`, filepath.Join(bin, "buildkite"), filepath.Join(bin, "noop")))

	graph := wallConfig(clusters)
	ours := newWallSubject("buildkite", fmt.Sprintf(`terraform {
  required_providers {
    buildkite = { source = "registry.terraform.io/ci-rest/buildkite" }
  }
}

provider "buildkite" {
  rest_url     = %q
  organization = %q
  api_token    = %q
}
%s`, ts.URL, org, token, graph))
	noopConfig := `terraform {
  required_providers {
    noop = { source = "registry.terraform.io/bench/noop" }
  }
}
` + strings.ReplaceAll(graph, "buildkite_", "noop_")
	// The no-op provider logs as any framework provider does (at TRACE, which Terraform reads and drops
	// unless TF_LOG is set); the quiet one is told not to, as this provider tells itself (SilenceUnreadLogs).
	noop := newWallSubject("noop", noopConfig)
	quiet := newWallSubject("noop-quiet", noopConfig,
		"TF_LOG_SDK=OFF", "TF_LOG_SDK_PROTO=OFF", "TF_LOG_SDK_FRAMEWORK=OFF", "TF_LOG_PROVIDER_NOOP=OFF")

	profile := os.Getenv(envBenchProfile)
	for round := range rounds {
		// Each subject runs first, second and third in turn.
		subjects := []*wallSubject{ours, noop, quiet}
		order := slices.Concat(subjects[round%3:], subjects[:round%3])
		for _, s := range order {
			dir := filepath.Join(t.TempDir(), s.name)
			writeFile(t, filepath.Join(dir, "main.tf"), s.config)
			for _, phase := range wallPhases {
				env := append([]string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}, s.env...)
				if profile != "" {
					pdir := filepath.Join(profile, s.name, phase)
					if err := os.MkdirAll(pdir, 0o755); err != nil {
						t.Fatal(err)
					}
					env = append(env, cpuprofile.EnvDir+"="+pdir)
				}
				emulator.ResetRequests()
				conns.Store(0)
				wall, cpu, emu := runTerraform(t, tf, dir, env, phase)
				calls, _ := acctest.BenchCount(emulator)
				s.wall[phase] = append(s.wall[phase], wall)
				s.cpu[phase] = append(s.cpu[phase], cpu)
				s.emu[phase] = append(s.emu[phase], emu)
				s.calls[phase] = append(s.calls[phase], calls)
				s.conns[phase] = append(s.conns[phase], int(conns.Load()))
				t.Logf("round %d %s %s: wall=%s cpu=%s emulator=%s calls=%d connections=%d", round+1, s.name, phase,
					wall.Round(time.Millisecond), cpu.Round(time.Millisecond), emu.Round(time.Millisecond), calls, conns.Load())
			}
		}
	}

	objects := 3 * clusters
	for _, phase := range wallPhases {
		a := median(ours.wall[phase])
		line := fmt.Sprintf("walltime objects=%d rounds=%d %-7s | buildkite %s (cpu %s, emulator %s, calls %d, connections %d)",
			objects, rounds, phase, a.Round(time.Millisecond), median(ours.cpu[phase]).Round(time.Millisecond),
			median(ours.emu[phase]).Round(time.Millisecond), ours.calls[phase][0], slices.Max(ours.conns[phase]))
		for _, s := range []*wallSubject{noop, quiet} {
			b := median(s.wall[phase])
			line += fmt.Sprintf(" | %s %s (cpu %s) ratio %.2fx", s.name, b.Round(time.Millisecond),
				median(s.cpu[phase]).Round(time.Millisecond), float64(a)/float64(b))
		}
		fmt.Println("bench:", line)
	}
	if profile != "" {
		printProfiles(t, profile, rounds, ours, noop, quiet)
	}
}

// wallConfig declares clusters, each with one queue and one agent token.
func wallConfig(clusters int) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "c" {
  count = %d
  name  = "wall-${count.index}"
}

resource "buildkite_cluster_queue" "q" {
  count      = length(buildkite_cluster.c)
  cluster_id = buildkite_cluster.c[count.index].id
  key        = "queue-${count.index}"
}

resource "buildkite_cluster_agent_token" "t" {
  count       = length(buildkite_cluster.c)
  cluster_id  = buildkite_cluster.c[count.index].id
  description = "wall token ${count.index}"
}
`, clusters)
}

// runTerraform runs one phase in dir and returns its wall time, the CPU time of Terraform and the provider
// processes it started and waited for, and the CPU time of this process (the emulator) meanwhile. The plan
// after an apply must be empty.
func runTerraform(t *testing.T, tf, dir string, env []string, phase string) (wall, cpu, emu time.Duration) {
	t.Helper()
	args := []string{phase, "-input=false", "-no-color"}
	switch phase {
	case "apply", "destroy":
		args = append(args, "-auto-approve")
	case "plan":
		args = append(args, "-detailed-exitcode") // 2: the plan after an apply is not empty
	}
	cmd := exec.Command(tf, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	emuBefore := acctest.ProcessCPU()
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	emu = acctest.ProcessCPU() - emuBefore
	if err != nil {
		t.Fatalf("terraform %s in %s: %v\n%s", phase, dir, err, out.String())
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), emu
}

// goBuild compiles a provider binary to out.
func goBuild(t *testing.T, out, pkg string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// totalSamples reads "Total samples = 1.23s" from go tool pprof's header.
var totalSamples = regexp.MustCompile(`Total samples = ([0-9.]+m?s)`)

// printProfiles prints, per phase, each subject's provider CPU per round as its profiles sum it, and the
// top of this provider's profile. The profiles carry their symbols, so the command it prints works after
// the test has removed the binaries.
func printProfiles(t *testing.T, dir string, rounds int, subjects ...*wallSubject) {
	t.Helper()
	for _, phase := range wallPhases {
		var per []string
		for _, s := range subjects {
			name := s.name
			files, _ := filepath.Glob(filepath.Join(dir, name, phase, "*.pprof"))
			args := append([]string{"tool", "pprof", "-top", "-nodecount=25"}, files...)
			out, err := exec.Command("go", args...).CombinedOutput()
			if err != nil {
				t.Logf("go tool pprof (%s %s): %v\n%s", name, phase, err, out)
				continue
			}
			total := "0s"
			if m := totalSamples.FindSubmatch(out); m != nil {
				total = string(m[1])
			}
			d, _ := time.ParseDuration(total)
			per = append(per, fmt.Sprintf("%s %s per round (%d processes over %d rounds)", name,
				(d/time.Duration(rounds)).Round(time.Millisecond), len(files), rounds))
			if name == "buildkite" {
				fmt.Printf("bench: walltime profile %s: go %s\n%s\n", phase, strings.Join(args, " "), out)
			}
		}
		fmt.Println("bench: walltime provider cpu", phase, "|", strings.Join(per, " | "))
	}
}

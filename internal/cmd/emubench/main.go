// Command emubench measures the emulator (fakeserver) as its state grows: for each size it
// seeds that many pipelines, then times pipeline creates and GETs and the first and last page of the
// pipeline list over HTTP on loopback, and reports the heap in use and the resident set. It prints a
// markdown table for BENCHMARKS.md:
//
//	go run ./internal/cmd/emubench                 # 1,000, 10,000 and 100,000 pipelines
//	go run ./internal/cmd/emubench -sizes 1000,5000 -ops 500
//
// Each size runs in a child process of its own, so the memory figures of one size do not carry the
// garbage of another.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "emubench:", err)
		os.Exit(1)
	}
}

// config is what the flags set.
type config struct {
	sizes   []int
	ops     int // timed creates and GETs per size
	pages   int // timed requests of each list page per size
	workers int // concurrent clients while seeding
	child   int // when set: measure this one size in this process and print its result as JSON
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("emubench", flag.ContinueOnError)
	sizes := fs.String("sizes", "1000,10000,100000", "comma-separated numbers of pipelines to measure at")
	cfg := config{}
	fs.IntVar(&cfg.ops, "ops", 2000, "timed creates and GETs at each size")
	fs.IntVar(&cfg.pages, "pages", 50, "timed requests of the first and of the last list page at each size")
	fs.IntVar(&cfg.workers, "workers", 4, "concurrent clients seeding the pipelines")
	fs.IntVar(&cfg.child, "child", 0, "internal: measure one size in this process and print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.child > 0 {
		res, err := measure(cfg, cfg.child)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(res)
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-sizes: %q is not a positive number", s)
		}
		cfg.sizes = append(cfg.sizes, n)
	}
	if cfg.ops < 1 || cfg.pages < 1 || cfg.workers < 1 {
		return errors.New("-ops, -pages and -workers must be positive")
	}

	self, err := os.Executable()
	if err != nil {
		return err
	}
	var results []result
	for _, n := range cfg.sizes {
		cmd := exec.Command(self, "-child", strconv.Itoa(n), "-ops", strconv.Itoa(cfg.ops),
			"-pages", strconv.Itoa(cfg.pages), "-workers", strconv.Itoa(cfg.workers))
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("measuring %d pipelines: %w", n, err)
		}
		var res result
		if err := json.Unmarshal(out, &res); err != nil {
			return fmt.Errorf("measuring %d pipelines: %w", n, err)
		}
		results = append(results, res)
	}
	return printTable(stdout, cfg, results)
}

// result is one size's figures.
type result struct {
	Pipelines     int           `json:"pipelines"`
	Seed          time.Duration `json:"seed"`
	CreateP50     time.Duration `json:"create_p50"`
	CreatesPerSec float64       `json:"creates_per_sec"`
	GetP50        time.Duration `json:"get_p50"`
	GetsPerSec    float64       `json:"gets_per_sec"`
	FirstPageP50  time.Duration `json:"first_page_p50"`
	LastPageP50   time.Duration `json:"last_page_p50"`
	HeapInUse     uint64        `json:"heap_in_use"`
	RSS           uint64        `json:"rss"`
}

const (
	org   = "bench"
	token = "bench-token"
)

// measure seeds n pipelines (less the creates it times) over HTTP, then takes the figures.
func measure(cfg config, n int) (result, error) {
	srv := fakeserver.New(fakeserver.Options{Org: org, Token: token})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := &client{base: ts.URL + "/v2/organizations/" + org + "/pipelines",
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.workers}}}

	res := result{Pipelines: n}
	ops := min(cfg.ops, n)
	start := time.Now()
	if err := c.seed(n-ops, cfg.workers); err != nil {
		return res, err
	}
	res.Seed = time.Since(start)

	creates, elapsed, err := timed(ops, func(i int) error { return c.create(n - ops + i) })
	if err != nil {
		return res, err
	}
	res.CreateP50, res.CreatesPerSec = p50(creates), float64(ops)/elapsed.Seconds()

	gets, elapsed, err := timed(ops, func(i int) error {
		return c.get("/" + pipelineName((i*7919)%n)) // spread over the whole range
	})
	if err != nil {
		return res, err
	}
	res.GetP50, res.GetsPerSec = p50(gets), float64(ops)/elapsed.Seconds()

	lastPage := (n + 99) / 100
	first, _, err := timed(cfg.pages, func(int) error { return c.get("?per_page=100&page=1") })
	if err != nil {
		return res, err
	}
	last, _, err := timed(cfg.pages, func(int) error { return c.get("?per_page=100&page=" + strconv.Itoa(lastPage)) })
	if err != nil {
		return res, err
	}
	res.FirstPageP50, res.LastPageP50 = p50(first), p50(last)

	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapInUse, res.RSS = ms.HeapInuse, rss()
	runtime.KeepAlive(srv)
	return res, nil
}

// client sends the benchmark's requests.
type client struct {
	base string
	http *http.Client
}

func pipelineName(i int) string { return "bench-" + strconv.Itoa(i) }

// create creates pipeline i.
func (c *client) create(i int) error {
	body, _ := json.Marshal(map[string]string{
		"name": pipelineName(i), "repository": "https://github.com/acme/app.git",
		"configuration": "steps:\n  - command: make test\n",
	})
	return c.do(http.MethodPost, "", bytes.NewReader(body), http.StatusCreated)
}

// get sends a GET of base+suffix.
func (c *client) get(suffix string) error { return c.do(http.MethodGet, suffix, nil, http.StatusOK) }

func (c *client) do(method, suffix string, body io.Reader, want int) error {
	req, err := http.NewRequestWithContext(context.Background(), method, c.base+suffix, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d", method, c.base+suffix, resp.StatusCode, want)
	}
	return nil
}

// seed creates pipelines 0..n-1 with workers concurrent clients.
func (c *client) seed(n, workers int) error {
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if err := c.create(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// timed runs fn(0..n-1) one after another and returns each call's duration and the total.
func timed(n int, fn func(i int) error) ([]time.Duration, time.Duration, error) {
	out := make([]time.Duration, n)
	start := time.Now()
	for i := range n {
		t := time.Now()
		if err := fn(i); err != nil {
			return nil, 0, err
		}
		out[i] = time.Since(t)
	}
	return out, time.Since(start), nil
}

func p50(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// rss reads the resident set size from /proc/self/status (0 where there is none).
func rss() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// printTable writes the results as a markdown table, under a line saying how they were taken.
func printTable(w io.Writer, cfg config, results []result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d timed creates and GETs and %d requests of each list page (per_page=100) per size, one client, "+
		"loopback HTTP; pipelines seeded over HTTP by %d clients.\n\n", cfg.ops, cfg.pages, cfg.workers)
	fmt.Fprintln(&b, "| pipelines | seed | create p50 | creates/s | GET p50 | GETs/s | first page p50 | last page p50 | heap in use | RSS |")
	fmt.Fprintln(&b, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range results {
		fmt.Fprintf(&b, "| %d | %s | %s | %.0f | %s | %.0f | %s | %s | %s | %s |\n", r.Pipelines,
			r.Seed.Round(100*time.Millisecond), us(r.CreateP50), r.CreatesPerSec, us(r.GetP50), r.GetsPerSec,
			us(r.FirstPageP50), us(r.LastPageP50), mb(r.HeapInUse), mb(r.RSS))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func us(d time.Duration) string { return strconv.FormatInt(d.Microseconds(), 10) + " µs" }

func mb(b uint64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }

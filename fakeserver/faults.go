package fakeserver

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults makes the server misbehave on purpose, so a client's retries, backoff and recovery from
// half-finished creates can be tested. The zero value injects nothing.
//
// Faults apply to the API: every request under /v2/ and /v3/, GET /v2/access-token included (the real
// service can fail there too). They never apply to the test-only routes under /_fake/, and Except can
// spare more. Each request the faults apply to takes the same number of draws from a generator seeded
// with Seed, so a client sending the same requests in the same order meets the same faults.
type Faults struct {
	// ServerErrors is the share of requests answered 500, 502 or 503 (one chosen at random) without
	// acting.
	ServerErrors float64
	// RateLimited is the share of requests answered 429, with the RateLimit-* headers and the usual body,
	// without acting.
	RateLimited float64
	// RateLimitReset is the RateLimit-Reset of an injected 429 (default 1s; whole seconds).
	RateLimitReset time.Duration
	// Latency is added before every request the faults apply to.
	Latency time.Duration
	// DropCreates is the share of creates (POSTs the API answers 201) that act, so the object exists, and
	// then either close the connection without an answer or, in the other half of cases and wherever the
	// connection cannot be taken over, answer 502.
	DropCreates float64
	// Seed seeds the random choices.
	Seed int64
	// Except, when set, spares the requests it returns true for.
	Except func(*http.Request) bool
}

// The faults a Request of the log can carry.
const (
	// FaultServerError: answered 500, 502 or 503 without acting.
	FaultServerError = "server_error"
	// FaultRateLimited: answered 429 without acting.
	FaultRateLimited = "rate_limited"
	// FaultDropped: a create that acted, then closed the connection without an answer (Status 0).
	FaultDropped = "dropped"
	// FaultBadGateway: a create that acted, then answered 502.
	FaultBadGateway = "bad_gateway"
)

// FaultCounts are the faults a server has injected since it started.
type FaultCounts struct {
	ServerErrors int64 // answered 500/502/503 without acting
	RateLimited  int64 // answered 429 without acting
	Dropped      int64 // creates that acted, then closed the connection
	BadGateway   int64 // creates that acted, then answered 502
}

// ActedCreates is how many creates acted although the client was told otherwise (or nothing): each left
// an object the client may not know about.
func (c FaultCounts) ActedCreates() int64 { return c.Dropped + c.BadGateway }

// ParseFaults reads the --faults form of Faults: comma-separated key=value pairs, each at most once, of
// 5xx (share of ServerErrors), 429 (share of RateLimited), latency (a Go duration), drop (share of
// DropCreates), reset (RateLimitReset, a Go duration) and seed (an integer). Shares lie between 0 and 1.
// "" is no faults. Example: "5xx=0.2,429=0.2,latency=20ms,drop=0.1,seed=42".
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	if strings.TrimSpace(spec) == "" {
		return f, nil
	}
	shares := map[string]*float64{"5xx": &f.ServerErrors, "429": &f.RateLimited, "drop": &f.DropCreates}
	durations := map[string]*time.Duration{"latency": &f.Latency, "reset": &f.RateLimitReset}
	seen := map[string]bool{}
	var problems []string
	for _, pair := range strings.Split(spec, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case !ok || key == "":
			problems = append(problems, fmt.Sprintf("%q is not key=value", pair))
			continue
		case seen[key]:
			problems = append(problems, key+" given twice")
			continue
		}
		seen[key] = true
		if dst, ok := shares[key]; ok {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil || v < 0 || v > 1 {
				problems = append(problems, fmt.Sprintf("%s=%s: want a share between 0 and 1", key, value))
			}
			*dst = v
			continue
		}
		if dst, ok := durations[key]; ok {
			d, err := time.ParseDuration(value)
			if err != nil || d < 0 {
				problems = append(problems, fmt.Sprintf("%s=%s: want a duration such as 20ms", key, value))
			}
			*dst = d
			continue
		}
		if key == "seed" {
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				problems = append(problems, fmt.Sprintf("seed=%s: want an integer", value))
			}
			f.Seed = n
			continue
		}
		problems = append(problems, fmt.Sprintf("unknown key %q (known: 5xx, 429, latency, drop, reset, seed)", key))
	}
	if f.ServerErrors+f.RateLimited > 1 {
		problems = append(problems, "5xx and 429 together exceed 1")
	}
	if len(problems) > 0 {
		return Faults{}, errors.New(strings.Join(problems, "; "))
	}
	return f, nil
}

// enabled reports whether f injects anything.
func (f Faults) enabled() bool {
	return f.ServerErrors > 0 || f.RateLimited > 0 || f.Latency > 0 || f.DropCreates > 0
}

// faultInjector draws the faults of each request and counts them.
type faultInjector struct {
	cfg Faults

	mu     sync.Mutex
	rng    *rand.Rand
	counts FaultCounts
}

func newFaultInjector(cfg Faults) *faultInjector {
	if !cfg.enabled() {
		return nil
	}
	if cfg.RateLimitReset <= 0 {
		cfg.RateLimitReset = time.Second
	}
	return &faultInjector{cfg: cfg, rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5eed))} //nolint:gosec // repeatable, not secret
}

// faultDraws are one request's random numbers, all drawn whether used or not so the sequence does not
// depend on which faults a request meets.
type faultDraws struct {
	refuse, status, drop, how float64
}

func (fi *faultInjector) draw() faultDraws {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return faultDraws{fi.rng.Float64(), fi.rng.Float64(), fi.rng.Float64(), fi.rng.Float64()}
}

func (fi *faultInjector) count(fault string) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	switch fault {
	case FaultServerError:
		fi.counts.ServerErrors++
	case FaultRateLimited:
		fi.counts.RateLimited++
	case FaultDropped:
		fi.counts.Dropped++
	case FaultBadGateway:
		fi.counts.BadGateway++
	}
}

// applies reports whether r is a request faults may touch.
func (fi *faultInjector) applies(r *http.Request) bool {
	api := strings.HasPrefix(r.URL.Path, "/v2/") || strings.HasPrefix(r.URL.Path, "/v3/")
	return api && (fi.cfg.Except == nil || !fi.cfg.Except(r))
}

// injectedStatuses are the 5xx answers a server error picks from.
var injectedStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}

// serveWithFaults answers r through s.serve unless a fault takes its place, and returns the fault ("" for
// none) and, for a dropped create, the connection, which the caller closes once it has logged the request.
func (s *Server) serveWithFaults(w http.ResponseWriter, r *http.Request) (string, io.Closer) {
	fi := s.faults
	if fi == nil || !fi.applies(r) {
		s.serve(w, r)
		return "", nil
	}
	d := fi.draw()
	if fi.cfg.Latency > 0 {
		select {
		case <-time.After(fi.cfg.Latency):
		case <-r.Context().Done():
		}
	}
	fault := ""
	var drop io.Closer
	switch {
	case d.refuse < fi.cfg.ServerErrors:
		fault = FaultServerError
		writeError(w, errInjected(injectedStatuses[int(d.status*float64(len(injectedStatuses)))]))
	case d.refuse < fi.cfg.ServerErrors+fi.cfg.RateLimited:
		fault = FaultRateLimited
		reset := ceilSeconds(fi.cfg.RateLimitReset)
		refused := rateDecision{limit: unenforcedLimit, current: unenforcedLimit + 1, reset: reset, exceeded: true}.apply(w)
		writeError(w, refused)
	case r.Method == http.MethodPost && d.drop < fi.cfg.DropCreates:
		fault, drop = s.serveThenDrop(w, r, d.how < 0.5)
	default:
		s.serve(w, r)
	}
	fi.count(fault)
	return fault, drop
}

// serveThenDrop serves r into a buffer; a create (201) is then dropped (hijack, when asked and possible)
// or answered 502, and anything else is passed on as answered. A dropped create returns the hijacked
// connection, still open: closed before the fault is counted, a client could see the drop first.
func (s *Server) serveThenDrop(w http.ResponseWriter, r *http.Request, hijack bool) (string, io.Closer) {
	buf := &probeWriter{header: http.Header{}}
	s.serve(buf, r)
	if buf.status != http.StatusCreated {
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		w.WriteHeader(buf.status)
		_, _ = w.Write(buf.body)
		return "", nil
	}
	if hijack {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			return FaultDropped, conn
		}
	}
	writeError(w, errInjected(http.StatusBadGateway))
	return FaultBadGateway, nil
}

// FaultCounts returns the faults injected so far (Options.Faults).
func (s *Server) FaultCounts() FaultCounts {
	if s.faults == nil {
		return FaultCounts{}
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return s.faults.counts
}

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
// The shares (ServerErrors, RateLimited, Latency, DropCreates) apply to the API: every request under /v2/
// and /v3/, GET /v2/access-token included (the real service can fail there too), and GraphQL's POST /v1.
// They never apply to the test-only routes under /_fake/, and Except can spare more. Each request the
// shares apply to takes the same number of draws from a generator seeded with Seed, so a client sending
// the same requests in the same order meets the same faults. Aimed faults (AimedFault) hit the requests
// they name, and take the place of the shares' fault on those.
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
	// DropCreates is the share of creates (POSTs the API answers 201, and GraphQL mutations that acted:
	// answered 200 with a root field of data not null) that act, so the object exists, and then either
	// close the connection without an answer or, in the other half of cases and wherever the connection
	// cannot be taken over, answer 502.
	DropCreates float64
	// Seed seeds the random choices.
	Seed int64
	// Except, when set, spares the requests it returns true for from the shares (not from Aimed).
	Except func(*http.Request) bool
	// Aimed are faults aimed at one REST route or one GraphQL operation; Server.AimFault arms more at run
	// time.
	Aimed []AimedFault
}

// The faults a Request of the log can carry: these, and the kinds of AimedFault.
const (
	// FaultServerError: answered 500, 502 or 503 without acting.
	FaultServerError = "server_error"
	// FaultRateLimited: answered 429 without acting.
	FaultRateLimited = "rate_limited"
	// FaultDropped: a create that acted, then closed the connection without an answer (Status 0)
	// (Faults.DropCreates).
	FaultDropped = "dropped"
	// FaultBadGateway: a create that acted, then answered 502 (Faults.DropCreates).
	FaultBadGateway = "bad_gateway"
)

// FaultCounts are the faults a server has injected since it started, the shares' and the aimed ones'.
type FaultCounts struct {
	ServerErrors   int64 // answered 500/502/503 without acting (shares and aimed server_error)
	RateLimited    int64 // answered 429 without acting (shares and aimed rate_limited)
	Dropped        int64 // creates that acted, then closed the connection (DropCreates)
	BadGateway     int64 // creates that acted, then answered 502 (DropCreates)
	DropBefore     int64 // aimed drop_before: closed (or 502) without acting
	DropAfter      int64 // aimed drop_after: served, then closed (or 502)
	ErrorsWithData int64 // aimed errors_with_data
	NullData       int64 // aimed null_data
	NotFound       int64 // aimed not_found
}

// ActedCreates is how many creates acted although the client was told otherwise (or nothing) under
// Faults.DropCreates: each left an object the client may not know about. Aimed faults are counted apart
// (DropAfter, ErrorsWithData), as their target need not be a create.
func (c FaultCounts) ActedCreates() int64 { return c.Dropped + c.BadGateway }

// ParseFaults reads the --faults form of Faults: comma-separated key=value pairs, each at most once, of
// 5xx (share of ServerErrors), 429 (share of RateLimited), latency (a Go duration), drop (share of
// DropCreates), reset (RateLimitReset, a Go duration) and seed (an integer), and any number of aim (one
// of Aimed each, in the form of AimedFault.String: space-separated "<METHOD> <path> <kind>" or
// "<operation> <kind>", then skip=N and times=N if needed). Shares lie between 0 and 1. "" is no faults.
// Example: "5xx=0.2,429=0.2,latency=20ms,drop=0.1,seed=42", or
// "aim=POST /v2/organizations/{org}/clusters/{cluster}/tokens drop_after skip=1 times=1,aim=agentTokenCreate errors_with_data".
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
		case key == "aim":
			a, err := parseAimed(value)
			if err != nil {
				problems = append(problems, err.Error())
			}
			f.Aimed = append(f.Aimed, a)
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
		problems = append(problems, fmt.Sprintf("unknown key %q (known: 5xx, 429, latency, drop, reset, seed, aim)", key))
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
func (f Faults) enabled() bool { return f.shares() || len(f.Aimed) > 0 }

// shares reports whether f's shares inject anything.
func (f Faults) shares() bool {
	return f.ServerErrors > 0 || f.RateLimited > 0 || f.Latency > 0 || f.DropCreates > 0
}

// faultInjector draws the faults of each request, keeps the armed aimed faults, and counts the faults.
// Every server has one, so aimed faults can be armed at run time.
type faultInjector struct {
	cfg Faults

	mu     sync.Mutex
	rng    *rand.Rand
	aimed  []*aimedState
	counts FaultCounts
}

// newFaultInjector returns the injector of cfg, whose aimed faults are valid (validateAimed).
func newFaultInjector(cfg Faults) *faultInjector {
	if cfg.RateLimitReset <= 0 {
		cfg.RateLimitReset = time.Second
	}
	fi := &faultInjector{cfg: cfg, rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5eed))} //nolint:gosec // repeatable, not secret
	for _, a := range cfg.Aimed {
		fi.aimed = append(fi.aimed, newAimedState(a))
	}
	return fi
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
	counter := map[string]*int64{
		FaultServerError: &fi.counts.ServerErrors, FaultRateLimited: &fi.counts.RateLimited,
		FaultDropped: &fi.counts.Dropped, FaultBadGateway: &fi.counts.BadGateway,
		FaultDropBefore: &fi.counts.DropBefore, FaultDropAfter: &fi.counts.DropAfter,
		FaultErrorsWithData: &fi.counts.ErrorsWithData, FaultNullData: &fi.counts.NullData, FaultNotFound: &fi.counts.NotFound,
	}[fault]
	if counter != nil {
		*counter++
	}
}

// aim counts r against every armed aimed fault it matches and returns the kind of the first whose turn it
// is, or "".
func (fi *faultInjector) aim(r *http.Request, gql *gqlTarget) string {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	kind := ""
	for _, a := range fi.aimed {
		if !a.matches(r.Method, r.URL.Path, gql) {
			continue
		}
		a.seen++
		n := a.seen - a.Skip
		if kind == "" && n > 0 && (a.Times == 0 || n <= a.Times) {
			kind = a.Kind
		}
	}
	return kind
}

// applies reports whether r is a request the shares may touch.
func (fi *faultInjector) applies(r *http.Request) bool {
	api := strings.HasPrefix(r.URL.Path, "/v2/") || strings.HasPrefix(r.URL.Path, "/v3/") || r.URL.Path == "/v1"
	return api && (fi.cfg.Except == nil || !fi.cfg.Except(r))
}

// injectedStatuses are the 5xx answers a server error picks from.
var injectedStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}

// serveWithFaults answers r through s.serve unless a fault takes its place, and returns the fault ("" for
// none), the GraphQL operation r asks for ("" when it is not GraphQL) and, for a dropped request, the
// connection, which the caller closes once it has logged the request.
func (s *Server) serveWithFaults(w http.ResponseWriter, r *http.Request) (fault, operation string, drop io.Closer) {
	fi := s.faults
	var gql *gqlTarget
	if isGraphQL(r) {
		gql = readGraphQLTarget(r)
	}
	operation = gql.label()
	kind := fi.aim(r, gql)
	shares := fi.cfg.shares() && fi.applies(r)
	if kind == "" && !shares {
		s.serve(w, r)
		return "", operation, nil
	}
	var d faultDraws
	if shares {
		d = fi.draw()
		if fi.cfg.Latency > 0 {
			select {
			case <-time.After(fi.cfg.Latency):
			case <-r.Context().Done():
			}
		}
	}
	switch {
	case kind != "":
		fault, drop = s.serveAimed(w, r, kind, gql)
	case d.refuse < fi.cfg.ServerErrors:
		fault = FaultServerError
		writeError(w, errInjected(injectedStatuses[int(d.status*float64(len(injectedStatuses)))]))
	case d.refuse < fi.cfg.ServerErrors+fi.cfg.RateLimited:
		fault = FaultRateLimited
		s.writeInjectedRateLimit(w)
	case r.Method == http.MethodPost && d.drop < fi.cfg.DropCreates:
		fault, drop = s.serveThenDrop(w, r, gql, d.how < 0.5)
	default:
		s.serve(w, r)
	}
	fi.count(fault)
	return fault, operation, drop
}

// writeInjectedRateLimit answers an injected 429, with the RateLimit-* headers and the usual body.
func (s *Server) writeInjectedRateLimit(w http.ResponseWriter) {
	reset := ceilSeconds(s.faults.cfg.RateLimitReset)
	refused := rateDecision{limit: unenforcedLimit, current: unenforcedLimit + 1, reset: reset, exceeded: true}.apply(w)
	writeError(w, refused)
}

// serveAimed answers r with an aimed fault of kind and returns the fault and, for a drop, the connection
// to close.
func (s *Server) serveAimed(w http.ResponseWriter, r *http.Request, kind string, gql *gqlTarget) (string, io.Closer) {
	switch kind {
	case FaultServerError:
		writeError(w, errInjected(http.StatusInternalServerError))
	case FaultRateLimited:
		s.writeInjectedRateLimit(w)
	case FaultDropBefore:
		return kind, dropConnection(w)
	case FaultDropAfter:
		s.serve(&probeWriter{header: http.Header{}}, r)
		return kind, dropConnection(w)
	case FaultErrorsWithData:
		buf := &probeWriter{header: http.Header{}}
		s.serve(buf, r)
		body, ok := withError(gql, buf)
		if !ok { // not an answer with data (a refused token, a document that does not validate): as it was
			kind, body = "", buf.body
		}
		copyHeader(w.Header(), buf.header)
		w.WriteHeader(buf.status)
		_, _ = w.Write(body)
	case FaultNullData, FaultNotFound:
		if gql == nil { // not a document the fault layer could read: the handler answers what is wrong
			s.serve(w, r)
			return "", nil
		}
		writeJSON(w, http.StatusOK, nullAnswer(gql, kind == FaultNotFound))
	}
	return kind, nil
}

// dropConnection takes over w's connection, to be closed without an answer; where it cannot, it answers
// 502 and returns nil.
func dropConnection(w http.ResponseWriter) io.Closer {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		return conn
	}
	writeError(w, errInjected(http.StatusBadGateway))
	return nil
}

// copyHeader copies every header of src into dst but Content-Length, which a rewritten body changes.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		if k != "Content-Length" {
			dst[k] = v
		}
	}
}

// serveThenDrop serves r into a buffer; a create (201, or a GraphQL mutation that acted) is then dropped
// (hijack, when asked and possible) or answered 502, and anything else is passed on as answered. A
// dropped create returns the hijacked connection, still open: closed before the fault is counted, a
// client could see the drop first.
func (s *Server) serveThenDrop(w http.ResponseWriter, r *http.Request, gql *gqlTarget, hijack bool) (string, io.Closer) {
	buf := &probeWriter{header: http.Header{}}
	s.serve(buf, r)
	if buf.status != http.StatusCreated && !mutationActed(gql, buf) {
		copyHeader(w.Header(), buf.header)
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

// FaultCounts returns the faults injected so far (Options.Faults, AimFault).
func (s *Server) FaultCounts() FaultCounts {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return s.faults.counts
}

// AimFault arms an aimed fault from now on, after those already armed; safe for concurrent use (a test
// arms faults between steps). It panics when a is invalid (as ParseFaults would refuse it): an invalid
// fault is a mistake in the test, not a condition to handle.
func (s *Server) AimFault(a AimedFault) {
	if err := a.validate(); err != nil {
		panic("fakeserver: AimFault: " + err.Error())
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.aimed = append(s.faults.aimed, newAimedState(a))
}

// ClearAimedFaults disarms every aimed fault, those of Options.Faults.Aimed included. The counts stay.
func (s *Server) ClearAimedFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.aimed = nil
}

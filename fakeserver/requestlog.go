package fakeserver

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// defaultRequestLogSize is how many requests Server.Requests keeps unless Options.RequestLogSize says.
const defaultRequestLogSize = 10_000

// Request is one entry of the request log. GET /_emulator/requests answers the same entries as JSON, under
// the names the json tags give.
type Request struct {
	Method string `json:"method"` // HTTP method
	Path   string `json:"path"`   // URL path, without the query
	Status int    `json:"status"` // status answered; 0 when the connection was dropped without an answer (Options.Faults)
	// Operation is, for a GraphQL request (POST /v1), the operation it asked for: its name or, when it has
	// none, its first root field; "" for REST or a body that is not a GraphQL document.
	Operation string `json:"operation,omitempty"`
	// Org is the organization the request named: the slug after /v2/organizations/ in a REST path, or
	// for GraphQL the organization of the token when the token holds exactly one; "" otherwise.
	Org string `json:"organization,omitempty"`
	// Time is when the request arrived, by Options.Now.
	Time time.Time `json:"time"`
	// Fault is the fault injected instead of (or, for a dropped create, after) the normal answer: "" for
	// none, else one of the Fault* constants (for an aimed fault, its kind).
	Fault string `json:"fault,omitempty"`
}

// requestLog keeps the newest requests in a ring of fixed size and counts every request by status, so a
// long-running server's log never grows.
type requestLog struct {
	mu     sync.Mutex
	size   int
	ring   []Request // grows to size, then wraps
	next   int       // where the next entry goes once the ring is full
	counts map[int]int64
}

func newRequestLog(size int) *requestLog {
	switch {
	case size == 0:
		size = defaultRequestLogSize
	case size < 0:
		size = 0
	}
	return &requestLog{size: size, counts: map[int]int64{}}
}

// add records req.
func (l *requestLog) add(req Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counts[req.Status]++
	switch {
	case l.size == 0:
	case len(l.ring) < l.size:
		l.ring = append(l.ring, req)
	default:
		l.ring[l.next] = req
		l.next = (l.next + 1) % l.size
	}
}

// entries returns a copy of the ring, oldest first.
func (l *requestLog) entries() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

// countsByStatus returns a copy of the counters.
func (l *requestLog) countsByStatus() map[int]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[int]int64, len(l.counts))
	for status, n := range l.counts {
		out[status] = n
	}
	return out
}

// reset empties the ring and the counters.
func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring, l.next, l.counts = nil, 0, map[int]int64{}
}

// Requests returns the newest requests the log holds (at most Options.RequestLogSize), oldest first.
func (s *Server) Requests() []Request { return s.log.entries() }

// RequestCounts returns how many requests the server has answered since it started (or since
// ResetRequests), by status; status 0 counts connections dropped without an answer. Unlike Requests it
// covers every request, however many the log has let go.
func (s *Server) RequestCounts() map[int]int64 { return s.log.countsByStatus() }

// ResetRequests empties the request log and its counters.
func (s *Server) ResetRequests() { s.log.reset() }

// ---- what an entry says beyond method, path and status ----

// requestOrg returns the organization r names: the path's segment after /v2/organizations/ or, for a
// GraphQL request, the organization of its token when the token holds exactly one.
func (s *Server) requestOrg(r *http.Request) string {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/v2/organizations/"); ok {
		org, _, _ := strings.Cut(rest, "/")
		return org
	}
	if r.URL.Path != GraphQLPath {
		return ""
	}
	secret, ok := bearerToken(r)
	if !ok {
		return ""
	}
	org := ""
	_ = s.store.view(func() *apiError {
		if t := s.store.tokens[secret]; t != nil && len(t.orgs) == 1 {
			for slug := range t.orgs {
				org = slug
			}
		}
		return nil
	})
	return org
}

// controlRequests answers GET /_emulator/requests: the log's entries, oldest first, as a JSON array.
func (s *Server) controlRequests(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Requests())
}

// controlDeleteRequests answers DELETE /_emulator/requests: the log and its counters are emptied (204).
func (s *Server) controlDeleteRequests(w http.ResponseWriter, _ *http.Request) {
	s.ResetRequests()
	writeNoContent(w)
}

package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
)

// defaultRequestLogSize is how many requests Server.Requests keeps unless Options.RequestLogSize says.
const defaultRequestLogSize = 10_000

// Request is one entry of the request log. GET /_emulator/requests answers the same entries as JSON, under
// the names the json tags give.
type Request struct {
	Method string `json:"method"` // HTTP method
	Path   string `json:"path"`   // URL path, without the query
	Status int    `json:"status"` // status answered; 0 when the connection was dropped without an answer (Options.Faults)
	// Operation is a GraphQL request's operation name: the body's operationName, else the name of the
	// document's only operation; "" for REST, and for an anonymous or unreadable GraphQL document.
	Operation string `json:"operation,omitempty"`
	// Org is the organization the request named: the slug after /v2/organizations/ in a REST path, or
	// for GraphQL the organization of the token when the token holds exactly one; "" otherwise.
	Org string `json:"organization,omitempty"`
	// Time is when the request arrived, by Options.Now.
	Time time.Time `json:"time"`
	// Fault is the fault injected instead of (or, for a dropped create, after) the normal answer: "" for
	// none, else one of the Fault* constants.
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

// bodyCapture keeps a copy of what the handler reads of a GraphQL body (bounded by maxBodyBytes, as the
// body is), for the entry's operation name.
type bodyCapture struct {
	io.ReadCloser
	buf bytes.Buffer
}

// Read reads from the body and keeps what it read.
func (c *bodyCapture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.buf.Write(p[:n])
	return n, err
}

// captureGraphQL wraps r's body when r is a GraphQL request, so the log can name its operation once it is
// answered; nil otherwise.
func captureGraphQL(r *http.Request) *bodyCapture {
	if r.Method != http.MethodPost || r.URL.Path != GraphQLPath || r.Body == nil {
		return nil
	}
	c := &bodyCapture{ReadCloser: r.Body}
	r.Body = c
	return c
}

// operation returns the operation name of the GraphQL body the handler read: operationName when given,
// else the name of the document's only operation (parsed, not validated); "" when there is none.
func (c *bodyCapture) operation() string {
	if c == nil {
		return ""
	}
	var body struct {
		Query         string `json:"query"`
		OperationName string `json:"operationName"`
	}
	if json.Unmarshal(c.buf.Bytes(), &body) != nil {
		return ""
	}
	if body.OperationName != "" {
		return body.OperationName
	}
	return onlyOperationName(body.Query)
}

// onlyOperationName returns the name of the document's only operation, "" when it has none, several, or
// does not lex. It reads tokens, counting braces and parentheses, rather than parsing: linear and without
// recursion, whatever the document (the handler has already judged it).
func onlyOperationName(document string) string {
	lex := lexer.New(&ast.Source{Input: document})
	ops, name := 0, ""
	braces, parens := 0, 0
	owned := false    // an operation's or fragment's keyword was met and its selection set is still to open
	wantName := false // the token after an operation's keyword: its name, if it is a name
	for {
		tok, err := lex.ReadToken()
		if err != nil {
			return ""
		}
		if tok.Kind == lexer.EOF {
			break
		}
		if wantName && tok.Kind == lexer.Name && ops == 1 {
			name = tok.Value
		}
		afterKeyword := wantName
		wantName = false
		top := braces == 0 && parens == 0
		switch tok.Kind {
		case lexer.ParenL:
			parens++
		case lexer.ParenR:
			parens--
		case lexer.BraceL:
			if top && !owned {
				ops++ // an anonymous operation: { ... }
			}
			if top {
				owned = false
			}
			braces++
		case lexer.BraceR:
			braces--
		case lexer.Name:
			if !top || owned || afterKeyword {
				break
			}
			switch tok.Value {
			case "query", "mutation", "subscription":
				ops++
				owned, wantName = true, true
			case "fragment":
				owned = true
			}
		}
	}
	if ops != 1 {
		return ""
	}
	return name
}

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

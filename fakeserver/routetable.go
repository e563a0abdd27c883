package fakeserver

import (
	"net/http"
	"sort"
)

// routeMux is the server's mux, keeping its route table as it is filled: every pattern an area registers.
// The coverage table (coverage.md, written by TestCoverageTable) is generated from it.
type routeMux struct {
	*http.ServeMux
	patterns []string
}

// HandleFunc registers handler for pattern and records the pattern.
func (m *routeMux) HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request)) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.HandleFunc(pattern, handler)
}

// Handle registers handler for pattern and records the pattern.
func (m *routeMux) Handle(pattern string, handler http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, handler)
}

// Routes returns the server's route table: every "METHOD /path" pattern it serves (the API's, GraphQL's
// POST /v1 and the test routes under /_fake/; not the controls under /_emulator/), sorted.
func (s *Server) Routes() []string {
	out := append([]string(nil), s.mux.patterns...)
	sort.Strings(out)
	return out
}

package fakeserver

import "net/http"

// Builds (spec 2.13, 3.2, 4.9), their jobs, cancel and rebuild.

// buildState is this area's part of the Store.
type buildState struct{}

func newBuildState() buildState { return buildState{} }

func (s *Server) routeBuilds(mux *http.ServeMux) {}

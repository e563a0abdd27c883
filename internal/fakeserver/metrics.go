package fakeserver

import "net/http"

// Agent metrics (spec 2.19, 4.2) at /v3/metrics with an agent registration token.

// metricsState is this area's part of the Store.
type metricsState struct{}

func newMetricsState() metricsState { return metricsState{} }

func (s *Server) routeMetrics(mux *http.ServeMux) {}

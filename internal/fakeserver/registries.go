package fakeserver

import "net/http"

// Package registries and registry tokens (spec 2.16, 2.17, 4.11).

// registryState is this area's part of the Store.
type registryState struct{}

func newRegistryState() registryState { return registryState{} }

func (s *Server) routeRegistries(mux *http.ServeMux) {}

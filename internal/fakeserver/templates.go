package fakeserver

import "net/http"

// Pipeline templates (spec 2.11, 4.7): enterprise plan only.

// templateState is this area's part of the Store.
type templateState struct{}

func newTemplateState() templateState { return templateState{} }

func (s *Server) routeTemplates(mux *http.ServeMux) {}

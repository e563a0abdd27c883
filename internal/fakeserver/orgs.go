package fakeserver

import "net/http"

// Organizations and their members (spec 2.2, 2.3, 4.1).

func (s *Server) routeOrganizations(mux *http.ServeMux) {}

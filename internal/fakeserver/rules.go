package fakeserver

import "net/http"

// Rules (spec 2.18, 4.12).

// ruleState is this area's part of the Store.
type ruleState struct{}

func newRuleState() ruleState { return ruleState{} }

func (s *Server) routeRules(mux *http.ServeMux) {}

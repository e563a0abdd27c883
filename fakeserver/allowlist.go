package fakeserver

import (
	"net"
	"net/http"
)

// The organization's API allowlist, enforced
// (https://buildkite.com/docs/apis/rest-api/organizations/api-settings; the allowlist applies at once, and a
// list that excludes the caller locks it out). Every request under /v2/organizations/{org} from an address
// outside the organization's allowlist is refused, once the token is known to be good, with the service's
// permission-denied answer (403 {"message":"Forbidden"}): the facts give no other wording. An empty
// allowlist allows every address. The caller's address is the connection's, or the one a test set with
// SetCallerAddress: in-process tests all call from 127.0.0.1.

// SetCallerAddress makes the server take every request as coming from addr (an IP address, such as
// "203.0.113.7"), for tests of the API allowlist; "" goes back to the connection's address. A test-only
// switch: the standalone command has no flag for it.
func (s *Server) SetCallerAddress(addr string) {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	s.callerAddr = addr
}

// callerAddress is the address the allowlist checks: SetCallerAddress's, or the connection's. The store's
// lock must be held.
func (s *Server) callerAddress(r *http.Request) string {
	if s.callerAddr != "" {
		return net.JoinHostPort(s.callerAddr, "0")
	}
	return r.RemoteAddr
}

// allowlistRefuses returns the answer to a request for org from outside its API allowlist, or nil. The
// store's lock must be held.
func (s *Server) allowlistRefuses(r *http.Request, org string) *apiError {
	rec := s.store.apiSettingsOrDefault(org)
	if rec.allowedIPs == "" || ipAllowed(s.callerAddress(r), rec.allowedIPs) {
		return nil
	}
	return errForbidden()
}

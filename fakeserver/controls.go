package fakeserver

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"
)

// The controls: routes under ControlPrefix, which no Buildkite route uses, for whoever runs the emulator
// (a CI step, a container's health check, a test harness in another process) rather than for the client
// under test. GET health needs no token; reset and state need Options.AdminToken as a bearer token, and
// answer the API's 404 when the server has none, so a client under test cannot reach them by accident.
// They are served before the API's middleware: no faults, no rate limit, no request log entry, and the
// state may be larger than an API body.

// ControlPrefix starts the path of every control route.
const ControlPrefix = "/_emulator/"

// maxStateBytes is the largest state PUT /_emulator/state accepts.
const maxStateBytes = 256 << 20

// controlRoute is one control: its method and path, whether it needs the admin token, and its handler.
type controlRoute struct {
	method, path string
	admin        bool
	serve        func(s *Server, w http.ResponseWriter, r *http.Request)
}

// controlRoutes are the controls, in the order the documentation lists them.
var controlRoutes = []controlRoute{
	{http.MethodGet, ControlPrefix, false, (*Server).controlPage}, // open without an admin token; page.go
	{http.MethodGet, ControlPrefix + "health", false, (*Server).controlHealth},
	{http.MethodPost, ControlPrefix + "reset", true, (*Server).controlReset},
	{http.MethodGet, ControlPrefix + "state", true, (*Server).controlGetState},
	{http.MethodPut, ControlPrefix + "state", true, (*Server).controlPutState},
	{http.MethodGet, ControlPrefix + "faults", true, (*Server).controlGetFaults},
	{http.MethodPost, ControlPrefix + "faults/aimed", true, (*Server).controlAimFault},
	{http.MethodDelete, ControlPrefix + "faults/aimed", true, (*Server).controlClearAimedFaults},
	{http.MethodGet, ControlPrefix + "requests", true, (*Server).controlRequests},
	{http.MethodDelete, ControlPrefix + "requests", true, (*Server).controlDeleteRequests},
}

// isControl reports whether r is for a control route (whether or not it exists).
func isControl(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, ControlPrefix) }

// serveControl answers a request under ControlPrefix: 404 for an unknown control or, without an admin
// token configured, for every admin control; 401 without the admin token; 405 for another method.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	s.routeControl(rec, r)
	if s.opts.Logf != nil {
		s.opts.Logf("%s %s %d %s", r.Method, redactedURI(r), rec.status, time.Since(start).Round(time.Microsecond))
	}
}

// redactedURI is r's path and query with the value of a token parameter (the page's ?token=) hidden.
func redactedURI(r *http.Request) string {
	q := r.URL.Query()
	if !q.Has("token") {
		return r.URL.RequestURI()
	}
	q.Set("token", "REDACTED")
	return r.URL.Path + "?" + q.Encode()
}

func (s *Server) routeControl(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, c := range controlRoutes {
		if c.path != r.URL.Path || (c.admin && s.opts.AdminToken == "") {
			continue
		}
		if c.method != r.Method && (c.method != http.MethodGet || r.Method != http.MethodHead) {
			allow = append(allow, c.method)
			continue
		}
		if c.admin && !s.isAdmin(r) {
			writeError(w, errAdminUnauthorized())
			return
		}
		c.serve(s, w, r)
		return
	}
	if len(allow) > 0 {
		writeError(w, errMethodNotAllowed(strings.Join(allow, ", ")))
		return
	}
	writeError(w, errRouteNotFound())
}

// isAdmin reports whether r carries the admin token (compared in constant time).
func (s *Server) isAdmin(r *http.Request) bool {
	token, ok := bearerToken(r)
	return ok && subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.AdminToken)) == 1
}

// healthBody is the answer of GET /_emulator/health.
type healthBody struct {
	Status string `json:"status"`
}

// controlHealth answers 200: a server exists only once its state is loaded (Open returns it after).
func (s *Server) controlHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, healthBody{Status: "ok"})
}

// controlReset puts the state back to the one the server started with and answers 204.
func (s *Server) controlReset(w http.ResponseWriter, _ *http.Request) {
	if err := s.Reset(); err != nil {
		writeError(w, newMessageError(http.StatusInternalServerError, err.Error()))
		return
	}
	writeNoContent(w)
}

// controlGetState answers the whole state, as the state file holds it.
func (s *Server) controlGetState(w http.ResponseWriter, _ *http.Request) {
	data, err := s.State()
	if err != nil {
		writeError(w, newMessageError(http.StatusInternalServerError, err.Error()))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

// controlPutState replaces the whole state with the body (a state file's content) and answers 204; a body
// that is not a state is 422, and a state holding the admin token as an access token 400; neither changes
// anything.
func (s *Server) controlPutState(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxStateBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, newMessageError(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("The state is too large (maximum is %d bytes)", maxStateBytes)))
		return
	case err != nil:
		writeError(w, errBadRequest("Reading the state: "+err.Error()))
		return
	}
	if err := s.SetState(data); err != nil {
		var saveErr *stateSaveError
		switch {
		case errors.As(err, &saveErr):
			writeError(w, newMessageError(http.StatusInternalServerError, err.Error()))
			return
		case errors.Is(err, errAdminTokenInState):
			writeError(w, errBadRequest("The state was refused: "+err.Error()+
				". Give that access token another value in the state, or start the emulator with another --admin-token"))
			return
		}
		writeError(w, errUnprocessable("Not a state: "+err.Error()))
		return
	}
	writeNoContent(w)
}

// errAdminUnauthorized: a control route without the admin token (401).
func errAdminUnauthorized() *apiError {
	return newMessageError(http.StatusUnauthorized,
		"Authentication required. The emulator's controls need the admin token (--admin-token) as \"Authorization: Bearer <token>\"")
}

// ---- the state as a whole: Server.State, SetState and Reset ----

// stateSaveError is a state that was taken but could not be written to the state file.
type stateSaveError struct{ err error }

func (e *stateSaveError) Error() string { return "saving the state file: " + e.err.Error() }
func (e *stateSaveError) Unwrap() error { return e.err }

// State returns the whole state as the state file (Options.StateFile) holds it: the JSON that SetState
// and PUT /_emulator/state take back.
func (s *Server) State() ([]byte, error) {
	s.store.mu.Lock() // encodeState records its sizes for the next save
	defer s.store.mu.Unlock()
	data, err := s.store.encodeState()
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), data...), nil
}

// SetState replaces the whole state with data, a state file's content (see State). Data that is not a
// whole state, or a state with an access token equal to Options.AdminToken (as Open refuses one), is an
// error and changes nothing. With a state file, the new state is written to it.
func (s *Server) SetState(data []byte) error {
	fresh := newStore(s.opts.Now)
	if err := fresh.decodeState(data); err != nil {
		return err
	}
	if err := fresh.refuseAdminToken(s.opts.AdminToken); err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	s.store.replaceState(fresh)
	if err := s.store.save(); err != nil {
		return &stateSaveError{err}
	}
	return nil
}

// Reset puts the state back to the one the server started with: the seeded state (Options.Org and
// Options.Token, or Options.Fixtures, and Options.SeedDefaults), or the one Options.StateFile held at start.
// Objects keep the IDs they had then.
func (s *Server) Reset() error {
	if s.initial == nil {
		return errors.New("the server has no starting state (it was not made by New or Open)")
	}
	return s.SetState(s.initial)
}

// startControls records the state the server starts with, for Reset, and refuses an admin token that is
// also an access token. Open calls it once the state is seeded or loaded.
func (s *Server) startControls() error {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	if err := s.store.refuseAdminToken(s.opts.AdminToken); err != nil {
		return fmt.Errorf("Options.AdminToken: %w", err)
	}
	data, err := s.store.encodeState()
	if err != nil {
		return fmt.Errorf("recording the starting state: %w", err)
	}
	s.initial = append([]byte(nil), data...)
	return nil
}

// errAdminTokenInState is a state holding the admin token as an access token, refused at start and by
// SetState: a client under test holding it would reach the controls, and the emulator would refuse to
// start again on its own state file.
var errAdminTokenInState = errors.New("the admin token is also an access token of the state: a client under test must not reach the controls")

// refuseAdminToken returns errAdminTokenInState when admin (not "") is an access token of st. st must be
// locked or not yet shared.
func (st *Store) refuseAdminToken(admin string) error {
	if _, ok := st.tokens[admin]; ok && admin != "" {
		return errAdminTokenInState
	}
	return nil
}

// replaceState moves every saved field of src into st, leaving st's lock, clock and state file as they
// are. The write lock must be held; src must not be used after.
func (st *Store) replaceState(src *Store) {
	dst, from := reflect.ValueOf(st).Elem(), reflect.ValueOf(src).Elem()
	for _, f := range savedFields(dst.Type()) {
		exposed(dst.Field(f.index)).Set(exposed(from.Field(f.index)))
	}
}

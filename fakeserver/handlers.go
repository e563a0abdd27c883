package fakeserver

import "net/http"

// The shapes every organization's handler has, for an area to fill in rather than write out: the token and
// its scope checked first, then the body read, then the store read or changed under one lock, the answer
// or the apiError written after. handler_shape_test.go lists the few handlers that open by hand, and why.

// serveRead answers a GET: the token must hold scope; read, under the store's read lock, returns the
// answer or the error (a 404 for what the path names and does not exist).
func (s *Server) serveRead(w http.ResponseWriter, r *http.Request, scope string, read func(org string) (any, *apiError)) {
	org, _, ok := s.authorize(w, r, scope)
	if !ok {
		return
	}
	var out any
	err := s.store.view(func() *apiError {
		var err *apiError
		out, err = read(org.slug)
		return err
	})
	respond(w, http.StatusOK, out, err)
}

// serveReadFor is serveRead for an answer that depends on who asks (a member's own entry, what the
// caller's role may see): read gets the organization and the token's user.
func (s *Server) serveReadFor(w http.ResponseWriter, r *http.Request, scope string, read func(org orgRecord, user userRecord) (any, *apiError)) {
	org, user, ok := s.authorize(w, r, scope)
	if !ok {
		return
	}
	var out any
	err := s.store.view(func() *apiError {
		var err *apiError
		out, err = read(org, user)
		return err
	})
	respond(w, http.StatusOK, out, err)
}

// serveWrite answers a create or an update: the token must hold scope and the body must be a JSON object;
// write, under the store's write lock, checks and changes what the body says and returns the answer
// (sent with status) or the error.
func (s *Server) serveWrite(w http.ResponseWriter, r *http.Request, scope string, status int,
	write func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError)) {
	s.serveWriteChecked(w, r, scope, status, nil, write)
}

// serveWriteChecked is serveWrite for an area whose every endpoint adds a rule to the token's (the
// templates' plan, the notification services' administrator): check, unless nil, runs under the read
// lock after the token is checked and before the body is read, so a caller it refuses learns nothing
// from the body's faults.
func (s *Server) serveWriteChecked(w http.ResponseWriter, r *http.Request, scope string, status int,
	check func(org orgRecord, user userRecord) *apiError,
	write func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError)) {
	org, user, ok := s.authorize(w, r, scope)
	if !ok {
		return
	}
	if check != nil {
		if err := s.store.view(func() *apiError { return check(org, user) }); err != nil {
			writeError(w, err)
			return
		}
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	var out any
	err := s.store.update(func() *apiError {
		var err *apiError
		out, err = write(org, user, in)
		return err
	})
	respond(w, status, out, err)
}

// serveDelete answers a DELETE with 204: the token must hold scope; remove, under the store's write lock,
// finds and deletes what the path names, or returns the error.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request, scope string, remove func(org string) *apiError) {
	org, _, ok := s.authorize(w, r, scope)
	if !ok {
		return
	}
	respondNoContent(w, s.store.update(func() *apiError { return remove(org.slug) }))
}

// serveAct answers a change that reads no body (a resume, a retry, a delete that answers what it
// removed): the token must hold scope; act, under the store's write lock, checks and changes what the
// path names and returns the answer (sent with status) or the error.
func (s *Server) serveAct(w http.ResponseWriter, r *http.Request, scope string, status int,
	act func(org orgRecord, user userRecord) (any, *apiError)) {
	org, user, ok := s.authorize(w, r, scope)
	if !ok {
		return
	}
	var out any
	err := s.store.update(func() *apiError {
		var err *apiError
		out, err = act(org, user)
		return err
	})
	respond(w, status, out, err)
}

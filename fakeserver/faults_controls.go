package fakeserver

import (
	"encoding/json"
	"io"
	"net/http"
)

// The faults' controls, for a harness in another process: GET /_emulator/faults answers the armed aimed
// faults and the counts; POST /_emulator/faults/aimed arms one more aimed fault (AimFault), given as JSON
// {"route" or "operation", "kind", "skip", "times"}; DELETE /_emulator/faults/aimed disarms them all
// (ClearAimedFaults). Like every admin control, they need Options.AdminToken.

// aimedFaultJSON is an AimedFault as the controls take and answer it.
type aimedFaultJSON struct {
	Route     string `json:"route,omitempty"`
	Operation string `json:"operation,omitempty"`
	Kind      string `json:"kind"`
	Skip      int    `json:"skip"`
	Times     int    `json:"times"`
	// Seen is how many matching requests the fault has counted (answers only).
	Seen *int `json:"seen,omitempty"`
}

// faultCountsJSON is FaultCounts as GET /_emulator/faults answers them.
type faultCountsJSON struct {
	ServerErrors   int64 `json:"server_error"`
	RateLimited    int64 `json:"rate_limited"`
	Dropped        int64 `json:"dropped"`
	BadGateway     int64 `json:"bad_gateway"`
	DropBefore     int64 `json:"drop_before"`
	DropAfter      int64 `json:"drop_after"`
	ErrorsWithData int64 `json:"errors_with_data"`
	NullData       int64 `json:"null_data"`
	NotFound       int64 `json:"not_found"`
}

// controlGetFaults answers {"aimed": [...], "counts": {...}}.
func (s *Server) controlGetFaults(w http.ResponseWriter, _ *http.Request) {
	s.faults.mu.Lock()
	aimed := make([]aimedFaultJSON, 0, len(s.faults.aimed))
	for _, a := range s.faults.aimed {
		seen := a.seen
		aimed = append(aimed, aimedFaultJSON{Route: a.Route, Operation: a.Operation, Kind: a.Kind, Skip: a.Skip, Times: a.Times, Seen: &seen})
	}
	counts := faultCountsJSON(s.faults.counts)
	s.faults.mu.Unlock()
	writeJSON(w, http.StatusOK, struct {
		Aimed  []aimedFaultJSON `json:"aimed"`
		Counts faultCountsJSON  `json:"counts"`
	}{aimed, counts})
}

// controlAimFault arms the aimed fault of the body and answers 201 with it; an invalid one is 422.
func (s *Server) controlAimFault(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		writeError(w, errBadRequest("Reading the aimed fault: "+err.Error()))
		return
	}
	var in aimedFaultJSON
	if err := json.Unmarshal(body, &in); err != nil {
		writeError(w, errBadRequest(`The body is not a JSON aimed fault {"route" or "operation", "kind", "skip", "times"}: `+err.Error()))
		return
	}
	a := AimedFault{Route: in.Route, Operation: in.Operation, Kind: in.Kind, Skip: in.Skip, Times: in.Times}
	if err := a.validate(); err != nil {
		writeError(w, errUnprocessable(err.Error()))
		return
	}
	s.AimFault(a)
	in.Seen = nil
	writeJSON(w, http.StatusCreated, in)
}

// controlClearAimedFaults disarms every aimed fault and answers 204.
func (s *Server) controlClearAimedFaults(w http.ResponseWriter, _ *http.Request) {
	s.ClearAimedFaults()
	writeNoContent(w)
}

package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// membershipService is a stub team's membership of one user: POSTs to .../members/ act, the first one
// answers 502 after acting; a GET of the pair answers 404 for the first lagging reads after a create.
type membershipService struct {
	mu      sync.Mutex
	role    string // "" while not a member
	posts   int
	lagging int // GETs of the pair still answered 404 though the member exists
}

func (m *membershipService) handle(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	member := func() string {
		return fmt.Sprintf(`{"user_id":"u1","role":%q}`, m.role)
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/members/"):
		m.posts++
		if m.role != "" {
			respond(http.StatusUnprocessableEntity, `{"message":"Validation failed","errors":[{"field":"user","code":"taken","message":"is already a member of this team"}]}`)(w, r)
			return
		}
		m.role = "maintainer"
		if m.posts == 1 {
			respond(http.StatusBadGateway, `<html>Bad Gateway</html>`)(w, r)
			return
		}
		respond(http.StatusCreated, member())(w, r)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/members/u1"):
		if m.role == "" || m.lagging > 0 {
			m.lagging--
			respond(http.StatusNotFound, `{"message":"No team member found"}`)(w, r)
			return
		}
		respond(http.StatusOK, member())(w, r)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/members"):
		// The listing readItem may keep: u1 as a plain member, before someone else removed it.
		respond(http.StatusOK, `[{"user_id":"u1","role":"member"},{"user_id":"u2","role":"member"}]`)(w, r)
	default:
		respond(http.StatusNotFound, `{"message":"Not Found"}`)(w, r)
	}
}

// TestCreateOrAdopt_repeatRefusedAsDuplicateAdopts: the first create acted and lost its answer, the find
// did not see the membership yet (the service lagged), so the create was repeated and refused with 422
// "already a member". The membership the first create made is adopted, not reported as an error.
func TestCreateOrAdopt_repeatRefusedAsDuplicateAdopts(t *testing.T) {
	m := &membershipService{lagging: 2} // the read made before the create, and the one after its lost answer
	s := newStub(t, m.handle)
	c := newTestClient(t, s.srv.URL)
	got, err := c.TeamMembers.Create(context.Background(), "t1", TeamMemberCreate{UserID: "u1", Role: "maintainer"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got.UserID != "u1" || got.Role != "maintainer" {
		t.Errorf("adopted %+v, want u1 as maintainer", got)
	}
	if m.posts != 2 {
		t.Errorf("%d creates sent, want 2", m.posts)
	}
}

// TestCreateOrAdopt_associationFindAsksTheService: with listings kept for reads (ListReadTTL), a listing
// fetched before the create still shows the pair as it was; the find after a lost answer reads the pair
// from the service, so it adopts what the create made rather than the listing's stale copy.
func TestCreateOrAdopt_associationFindAsksTheService(t *testing.T) {
	m := &membershipService{}
	s := newStub(t, m.handle)
	c := newTestClient(t, s.srv.URL, func(cfg *Config) { cfg.ListReadTTL = DefaultListReadTTL })
	ctx := context.Background()
	// Two reads of the collection: a single GET of u2, then page 1 of the listing, kept.
	for range 2 {
		if _, err := c.TeamMembers.Get(ctx, "t1", "u2"); err != nil && !IsNotFound(err) {
			t.Fatal(err)
		}
	}
	got, err := c.TeamMembers.Create(ctx, "t1", TeamMemberCreate{UserID: "u1", Role: "maintainer"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got.Role != "maintainer" {
		t.Errorf("adopted role %q: the find answered from a listing fetched before the create", got.Role)
	}
	if m.posts != 1 {
		t.Errorf("%d creates sent, want 1", m.posts)
	}
}

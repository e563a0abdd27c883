package fakeserver

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Portals (https://buildkite.com/docs/apis/rest-api/portals): saved GraphQL queries invoked with a token of
// their own at portal.buildkite.com. The token is in the create answer only; the service never shows it again.
// A portal is addressed by its slug, which an update may change.

// KindPortal is a portal, for Store.Exists and Store.Remove; its key is the portal's UUID.
const KindPortal Kind = "portal"

func init() {
	registerKind(KindPortal, (*Store).portalByID, (*Store).deletePortal)
}

// ---- state ----

// portalState is this area's part of the Store.
type portalState struct {
	portals *table[*portalRecord] // listed by org; named by org and slug
}

func newPortalState() portalState {
	return portalState{portals: newTable(
		func(p *portalRecord) []string { return []string{p.org} },
		func(p *portalRecord) []string { return []string{nameKey(p.org, "slug", p.slug)} },
	)}
}

func (p *portalRecord) recordID() string { return p.id }
func (p *portalRecord) recordSeq() int64 { return p.seq }

type portalRecord struct {
	seq                 int64
	org, id, slug, name string
	description         string // "" when unset (shown as null)
	query               string
	allowedIPAddresses  string // CIDR blocks separated by spaces, as sent; "" when unset (shown as null)
	userInvokable       bool
	createdAt           time.Time
	createdBy           string // user id
}

// portalByID returns the portal of org with the UUID id, or nil. A lock must be held.
func (st *Store) portalByID(org, id string) *portalRecord {
	if p, ok := st.portals.portals.get(id); ok && p.org == org {
		return p
	}
	return nil
}

// portalBySlug returns the portal of org with slug, or nil. A lock must be held.
func (st *Store) portalBySlug(org, slug string) *portalRecord {
	p, _ := st.portals.portals.lookup(nameKey(org, "slug", slug))
	return p
}

func (st *Store) deletePortal(p *portalRecord) { st.portals.portals.remove(p) }

// ---- views ----

// portalView is a portal as the API shows it; Token is set in the create answer only.
type portalView struct {
	UUID               string    `json:"uuid"`
	Slug               string    `json:"slug"`
	OrganizationUUID   string    `json:"organization_uuid"`
	Name               string    `json:"name"`
	Description        *string   `json:"description"`
	Query              string    `json:"query"`
	AllowedIPAddresses *string   `json:"allowed_ip_addresses"`
	UserInvokable      bool      `json:"user_invokable"`
	CreatedAt          string    `json:"created_at"`
	CreatedBy          *userView `json:"created_by"`
	Token              string    `json:"token,omitempty"`
}

func (st *Store) portalView(p *portalRecord) portalView {
	v := portalView{
		UUID: p.id, Slug: p.slug, Name: p.name, Query: p.query, UserInvokable: p.userInvokable,
		CreatedAt: formatTime(p.createdAt), CreatedBy: st.userSummary(p.createdBy),
	}
	if o, ok := st.orgs[p.org]; ok {
		v.OrganizationUUID = o.id
	}
	if p.description != "" {
		v.Description = stringPtr(p.description)
	}
	if p.allowedIPAddresses != "" {
		v.AllowedIPAddresses = stringPtr(p.allowedIPAddresses)
	}
	return v
}

// ---- routes ----

func (s *Server) routePortals(mux *routeMux) {
	const portals = "/v2/organizations/{org}/portals"
	const portal = portals + "/{portal}"
	mux.HandleFunc("GET "+portals, s.listPortals)
	mux.HandleFunc("POST "+portals, s.createPortal)
	mux.HandleFunc("GET "+portal, s.getPortal)
	mux.HandleFunc("PUT "+portal, s.updatePortal)
	mux.HandleFunc("DELETE "+portal, s.deletePortalHandler)
}

// portalSlugPattern is the emulator's rule for a slug (the docs give none): what slugify derives from a name.
var portalSlugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// portalInput is what a create or update body says.
type portalInput struct {
	name, slug, description, query, allowed opt[string]
	userInvokable                           opt[bool]
}

func readPortalInput(in *jsonObject) (portalInput, validationErrors) {
	p := portalInput{
		name: in.String("name"), slug: in.String("slug"), description: in.String("description"),
		query: in.String("query"), allowed: in.String("allowed_ip_addresses"), userInvokable: in.Bool("user_invokable"),
	}
	problems := in.Problems()
	if p.slug.Given() && !portalSlugPattern.MatchString(p.slug.Value) {
		problems.add("slug", "must contain only lowercase letters, numbers and hyphens")
	}
	if p.query.Given() && !balancedQuery(p.query.Value) {
		problems.add("query", "is not a valid GraphQL document")
	}
	checkCIDR(&problems, p.allowed)
	return p, problems
}

// balancedQuery is the emulator's stand-in for parsing GraphQL: the document opens a selection set and
// its braces balance.
func balancedQuery(q string) bool {
	if !strings.Contains(q, "{") {
		return false
	}
	depth := 0
	for _, r := range q {
		switch r {
		case '{':
			depth++
		case '}':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// newPortalToken returns a portal's secret token.
func newPortalToken() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return "bkpt_" + hex.EncodeToString(b)
}

// ---- handlers ----

func (s *Server) listPortals(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPortals, func(org string) (any, *apiError) {
		out := []portalView{}
		for _, p := range paginate(w, r, s.store.portals.portals.list(org)) {
			out = append(out, s.store.portalView(p))
		}
		return out, nil
	})
}

func (s *Server) getPortal(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPortals, func(org string) (any, *apiError) {
		p := s.store.portalBySlug(org, r.PathValue("portal"))
		if p == nil {
			return nil, errNotFound("portal")
		}
		return s.store.portalView(p), nil
	})
}

func (s *Server) createPortal(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePortals, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		p, problems := readPortalInput(in)
		if strings.TrimSpace(p.name.Value) == "" {
			problems.addBlank("name")
		}
		if strings.TrimSpace(p.query.Value) == "" {
			problems.addBlank("query")
		}
		slug := p.slug.Value
		if !p.slug.Given() {
			slug = slugify(p.name.Value)
		}
		if slug == "" && strings.TrimSpace(p.name.Value) != "" {
			problems.addBlank("slug")
		}
		if slug != "" && s.store.portalBySlug(org.slug, slug) != nil {
			problems.add("slug", "has already been taken")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		rec := &portalRecord{
			seq: s.store.nextSeq(), org: org.slug, id: newID(), slug: slug, name: p.name.Value,
			description: p.description.Value, query: p.query.Value,
			allowedIPAddresses: strings.Join(cidrBlocks(p.allowed.Value), " "),
			userInvokable:      p.userInvokable.Value, createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.portals.portals.insert(rec)
		v := s.store.portalView(rec)
		v.Token = newPortalToken()
		return v, nil
	})
}

func (s *Server) updatePortal(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePortals, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		rec := s.store.portalBySlug(org.slug, r.PathValue("portal"))
		if rec == nil {
			return nil, errNotFound("portal")
		}
		p, problems := readPortalInput(in)
		if p.name.Set && strings.TrimSpace(p.name.Value) == "" {
			problems.addBlank("name")
		}
		if p.query.Set && strings.TrimSpace(p.query.Value) == "" {
			problems.addBlank("query")
		}
		if p.slug.Null || (p.slug.Set && p.slug.Value == "") {
			problems.addBlank("slug")
		}
		if p.slug.Given() && p.slug.Value != rec.slug && s.store.portalBySlug(org.slug, p.slug.Value) != nil {
			problems.add("slug", "has already been taken")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		s.store.portals.portals.rename(rec, func() { setString(&rec.slug, p.slug) })
		setString(&rec.name, p.name)
		setString(&rec.query, p.query)
		// null or "" clears an optional field.
		setString(&rec.description, p.description)
		if p.allowed.Set {
			rec.allowedIPAddresses = strings.Join(cidrBlocks(p.allowed.Value), " ")
		}
		if p.userInvokable.Given() {
			rec.userInvokable = p.userInvokable.Value
		}
		return s.store.portalView(rec), nil
	})
}

func (s *Server) deletePortalHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWritePortals, func(org string) *apiError {
		p := s.store.portalBySlug(org, r.PathValue("portal"))
		if p == nil {
			return errNotFound("portal")
		}
		s.store.deletePortal(p)
		return nil
	})
}

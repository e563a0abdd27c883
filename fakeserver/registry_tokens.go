package fakeserver

import (
	"net/http"
	"time"
)

// Registry tokens: a package registry's tokens
// (https://buildkite.com/docs/apis/rest-api/package-registries/registry-tokens). The secret is in the create
// answer only; registries.go says where the emulator goes beyond the documentation.

const (
	// KindRegistryToken is a registry token, named by its id.
	KindRegistryToken Kind = "registry_token"
)

func init() {
	registerKind(KindRegistryToken, nestedKey((*Store).registryToken), (*Store).deleteRegistryToken)
}

// ---- state ----

func (t *registryTokenRecord) recordID() string { return t.id }
func (t *registryTokenRecord) recordSeq() int64 { return t.seq }

type registryTokenRecord struct {
	seq                    int64
	org, registryID, id    string
	graphqlID, description string
	secret                 string
	createdAt              time.Time
	createdBy              string // user id
}

// registryToken returns the token with id of the registry of org named by registry (slug or id).
func (st *Store) registryToken(org, registry, id string) *registryTokenRecord {
	reg := st.registryBySlugOrID(org, registry)
	if reg == nil {
		return nil
	}
	if t, ok := st.registries.tokens.get(id); ok && t.registryID == reg.id {
		return t
	}
	return nil
}

func (st *Store) registryTokensOf(registryID string) []*registryTokenRecord {
	return st.registries.tokens.list(registryID)
}

// deleteRegistryToken removes t. The write lock must be held.
func (st *Store) deleteRegistryToken(t *registryTokenRecord) { st.registries.tokens.remove(t) }

// ---- views ----

// registryTokenOrgView is the organization embedded in a registry token.
type registryTokenOrgView struct {
	ID     string `json:"id"`
	Slug   string `json:"slug"`
	URL    string `json:"url"`
	WebURL string `json:"web_url"`
}

// registryTokenRegistryView is the registry embedded in a registry token.
type registryTokenRegistryView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	Slug      string `json:"slug"`
	URL       string `json:"url"`
	WebURL    string `json:"web_url"`
}

// registryTokenView renders t of registry reg. A lock must be held.
func (st *Store) registryTokenView(base string, reg *registryRecord, t *registryTokenRecord) registryTokenView {
	v := registryTokenView{
		ID: t.id, GraphQLID: t.graphqlID, Description: t.description,
		URL:       registryAPIURL(base, reg.org, reg.slug) + "/tokens/" + t.id,
		CreatedAt: formatTime(t.createdAt),
		CreatedBy: st.userSummary(t.createdBy),
		Registry: registryTokenRegistryView{
			ID: reg.id, GraphQLID: reg.graphqlID, Slug: reg.slug,
			URL: registryAPIURL(base, reg.org, reg.slug), WebURL: registryWebURL(base, reg.org, reg.slug),
		},
	}
	if o, ok := st.orgs[reg.org]; ok {
		v.Organization = registryTokenOrgView{
			ID: o.id, Slug: o.slug, URL: apiURL(base, "organizations", o.slug), WebURL: webURL(base, "organizations", o.slug),
		}
	}
	return v
}

type registryTokenView struct {
	ID           string                    `json:"id"`
	GraphQLID    string                    `json:"graphql_id"`
	Description  string                    `json:"description"`
	URL          string                    `json:"url"`
	CreatedAt    string                    `json:"created_at"`
	CreatedBy    *userView                 `json:"created_by"`
	Organization registryTokenOrgView      `json:"organization"`
	Registry     registryTokenRegistryView `json:"registry"`
}

// registryTokenCreatedView is the create response: the only one carrying the secret.
type registryTokenCreatedView struct {
	registryTokenView
	Token string `json:"token"`
}

// ---- routes ----

func (s *Server) routeRegistryTokens(mux *routeMux) {
	const tokens = "/v2/packages/organizations/{org}/registries/{registry}/tokens"
	const token = tokens + "/{token}"
	mux.HandleFunc("GET "+tokens, s.listRegistryTokens)
	mux.HandleFunc("POST "+tokens, s.createRegistryToken)
	mux.HandleFunc("GET "+token, s.getRegistryToken)
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		mux.HandleFunc(method+" "+token, s.updateRegistryToken)
	}
	mux.HandleFunc("DELETE "+token, s.deleteRegistryTokenHandler)
}

// ---- handlers ----

// findRegistryToken finds the token of the path's registry slug and token id: 404 for either. A lock must
// be held.
func (st *Store) findRegistryToken(org string, r *http.Request) (*registryRecord, *registryTokenRecord, *apiError) {
	reg, err := st.findRegistry(org, r)
	if err != nil {
		return nil, nil, err
	}
	t, ok := st.registries.tokens.get(r.PathValue("token"))
	if !ok || t.registryID != reg.id {
		return nil, nil, errNotFound("registry token")
	}
	return reg, t, nil
}

func (s *Server) listRegistryTokens(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRegistries, func(org string) (any, *apiError) {
		reg, err := s.store.findRegistry(org, r)
		if err != nil {
			return nil, err
		}
		out := []registryTokenView{}
		for _, t := range paginate(w, r, s.store.registryTokensOf(reg.id)) {
			out = append(out, s.store.registryTokenView(baseURL(r), reg, t))
		}
		return out, nil
	})
}

func (s *Server) getRegistryToken(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRegistries, func(org string) (any, *apiError) {
		reg, t, err := s.store.findRegistryToken(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.registryTokenView(baseURL(r), reg, t), nil
	})
}

// readTokenDescription reads the required description of a token create or update.
func readTokenDescription(in *jsonObject) (string, validationErrors) {
	desc := in.String("description")
	problems := in.Problems()
	if desc.Value == "" {
		problems.addBlank("description")
	}
	return desc.Value, problems
}

func (s *Server) createRegistryToken(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteRegistries, http.StatusOK, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		desc, problems := readTokenDescription(in)
		reg, err := s.store.findRegistry(org.slug, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		id := newID()
		t := &registryTokenRecord{
			seq: s.store.nextSeq(), org: org.slug, registryID: reg.id, id: id,
			graphqlID: graphQLID("RegistryToken", id), description: desc, secret: newSecret(),
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.registries.tokens.insert(t)
		return registryTokenCreatedView{registryTokenView: s.store.registryTokenView(baseURL(r), reg, t), Token: t.secret}, nil
	})
}

func (s *Server) updateRegistryToken(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteRegistries, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		desc, problems := readTokenDescription(in)
		reg, t, err := s.store.findRegistryToken(org.slug, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		t.description = desc
		return s.store.registryTokenView(baseURL(r), reg, t), nil
	})
}

// deleteRegistryTokenHandler answers 200 with the token it removed, as the service does.
func (s *Server) deleteRegistryTokenHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteRegistries, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		reg, t, err := s.store.findRegistryToken(org.slug, r)
		if err != nil {
			return nil, err
		}
		out := s.store.registryTokenView(baseURL(r), reg, t)
		s.store.deleteRegistryToken(t)
		return out, nil
	})
}

package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Package registries (https://buildkite.com/docs/apis/rest-api/package-registries/registries); their tokens
// are in registry_tokens.go.
//
// Behaviour where the documentation is silent, and why:
//   - Create answers 200, not 201, as the documentation says; so do delete (registry and token), which
//     answer 200 with the deleted object (go-buildkite decodes nothing from a delete, and a body a client
//     can decode is safer than none).
//   - The slug is the name lowercased with every run of other characters than letters and digits turned
//     into one hyphen ("My Gems!" → "my-gems"). It is unique per organization: a name whose slug is taken
//     is refused with 422 "Name has already been taken". Renaming re-derives the slug, as the real
//     service does (its docs warn that a new name changes the URL, and the official Terraform provider
//     marks the slug unknown when the name changes); the old slug then answers 404.
//   - Update is accepted as POST (the documentation), PATCH (go-buildkite) and PUT (the official Terraform
//     provider). The ecosystem cannot change: sending a different one is a 422, the same one is ignored.
//   - description, emoji, color and oidc_policy are null until set; an empty string or null sets them
//     back to null. oidc_policy is taken as a string (YAML or JSON text) or as a JSON array of policy
//     statements (what go-buildkite sends), and is always shown as a string, since go-buildkite decodes
//     it into a string: an array is shown as its compact JSON text. A string must be a YAML (or JSON)
//     document, else 422, as the service's "YAML or JSON string" says.
//   - public (a boolean, false until set) is accepted on create and update, as the service does
//     (https://buildkite.com/docs/apis/rest-api/package-registries/registries).
//   - team_ids (the real service's create property, required there when teams are enabled) is accepted
//     but not required (go-buildkite cannot send it); the create gives those teams access, and every answer
//     shows the teams with access, as the docs' answers do, including those given access later through
//     GraphQL (graphql_team_registries.go); an update ignores them (the official provider refuses changing
//     them).
//   - Every answer carries type (undocumented; the official provider reads it): "source", the only kind of
//     registry the API creates.
//   - A registry token's secret is the create response's "token" (the name later go-buildkite versions
//     decode); no other response carries it.

// Kinds of this area, for Store.Exists and Store.Remove.
const (
	// KindRegistry is a package registry, named by its slug or its id; removing it removes its tokens.
	KindRegistry Kind = "registry"
)

// registryEcosystems are the ecosystem values create accepts (compared case-insensitively, echoed as
// sent). The documentation shows only "ruby"; the rest are the ecosystems Buildkite Package Registries
// supports (alpine, container/OCI, debian, files, helm and helm OCI, Hugging Face, java, javascript, nuget,
// python, red hat, ruby, terraform) under the names and aliases a client may plausibly send.
var registryEcosystems = map[string]bool{
	"alpine": true, "apk": true,
	"container": true, "docker": true, "oci": true,
	"debian": true, "deb": true,
	"files": true, "file": true, "generic": true,
	"helm": true, "helm_oci": true,
	"huggingface": true, "hugging_face": true,
	"java": true, "maven": true, "gradle": true,
	"javascript": true, "npm": true, "node": true,
	"nuget":  true,
	"python": true, "pypi": true,
	"redhat": true, "red_hat": true, "rpm": true,
	"ruby": true, "rubygems": true,
	"terraform": true,
}

func init() {
	registerKind(KindRegistry, (*Store).registryBySlugOrID, (*Store).deleteRegistry)
}

// ---- state ----

// registryState is this area's part of the Store. Records are keyed by UUID; each names its organization.
// Registries are listed by org and named by slug in it; tokens are listed by registry.
type registryState struct {
	registries *table[*registryRecord]
	tokens     *table[*registryTokenRecord]
}

func newRegistryState() registryState {
	return registryState{
		registries: newTable(func(reg *registryRecord) []string { return []string{reg.org} },
			func(reg *registryRecord) []string { return []string{nameKey(reg.org, "slug", reg.slug)} }),
		tokens: newTable(func(t *registryTokenRecord) []string { return []string{t.registryID} }, nil),
	}
}

func (reg *registryRecord) recordID() string { return reg.id }
func (reg *registryRecord) recordSeq() int64 { return reg.seq }

type registryRecord struct {
	seq                      int64
	org, id, graphqlID, slug string
	name, ecosystem          string
	description, emoji       *string // nil is null
	color, oidcPolicy        *string
	public                   bool
	createdAt                time.Time
}

// The lookups below need a lock held; they return nil for a record outside org.

func (st *Store) registryBySlug(org, slug string) *registryRecord {
	reg, _ := st.registries.registries.lookup(nameKey(org, "slug", slug))
	return reg
}

func (st *Store) registryBySlugOrID(org, key string) *registryRecord {
	if reg, ok := st.registries.registries.get(key); ok && reg.org == org {
		return reg
	}
	return st.registryBySlug(org, key)
}

// registriesOf lists in creation order; the caller must not change the slice.
func (st *Store) registriesOf(org string) []*registryRecord {
	return st.registries.registries.list(org)
}

// deleteRegistry removes reg with its tokens and the teams' access to it. The write lock must be held.
func (st *Store) deleteRegistry(reg *registryRecord) {
	removeAll(st.registries.tokens, reg.id)
	removeAll(st.teams.registries, "registry:"+reg.id)
	st.registries.registries.remove(reg)
}

// RegistrySlug returns the slug of the registry of org named by slugOrID (its id or its slug); ok is false
// when there is none. Tests use it to follow a registry whose slug changed with its name.
func (st *Store) RegistrySlug(org, slugOrID string) (slug string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	reg := st.registryBySlugOrID(org, slugOrID)
	if reg == nil {
		return "", false
	}
	return reg.slug, true
}

// RegistryEcosystems returns the ecosystem values the emulator accepts, sorted.
func RegistryEcosystems() []string {
	out := make([]string, 0, len(registryEcosystems))
	for e := range registryEcosystems {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// ---- views ----

type registryView struct {
	ID          string   `json:"id"`
	GraphQLID   string   `json:"graphql_id"`
	Slug        string   `json:"slug"`
	URL         string   `json:"url"`
	WebURL      string   `json:"web_url"`
	Name        string   `json:"name"`
	Ecosystem   string   `json:"ecosystem"`
	Description *string  `json:"description"`
	Emoji       *string  `json:"emoji"`
	Color       *string  `json:"color"`
	Public      bool     `json:"public"`
	OIDCPolicy  *string  `json:"oidc_policy"`
	TeamIDs     []string `json:"team_ids"`
	Type        string   `json:"type"`
}

func registryAPIURL(base, org, slug string) string {
	return apiURL(base, "packages", "organizations", org, "registries", slug)
}

func registryWebURL(base, org, slug string) string {
	return webURL(base, "organizations", org, "packages", "registries", slug)
}

// renderRegistry shows reg; its team_ids are the teams with access to it (graphql_team_registries.go).
func (st *Store) renderRegistry(base string, reg *registryRecord) registryView {
	return registryView{
		ID: reg.id, GraphQLID: reg.graphqlID, Slug: reg.slug,
		URL:    registryAPIURL(base, reg.org, reg.slug),
		WebURL: registryWebURL(base, reg.org, reg.slug),
		Name:   reg.name, Ecosystem: reg.ecosystem,
		Description: reg.description, Emoji: reg.emoji, Color: reg.color,
		Public: reg.public, OIDCPolicy: reg.oidcPolicy,
		TeamIDs: st.registryTeamIDs(reg), Type: "source",
	}
}

// ---- routes ----

func (s *Server) routeRegistries(mux *routeMux) {
	const registries = "/v2/packages/organizations/{org}/registries"
	const registry = registries + "/{registry}"
	mux.HandleFunc("GET "+registries, s.listRegistries)
	mux.HandleFunc("POST "+registries, s.createRegistry)
	mux.HandleFunc("GET "+registry, s.getRegistry)
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		mux.HandleFunc(method+" "+registry, s.updateRegistry)
	}
	mux.HandleFunc("DELETE "+registry, s.deleteRegistryHandler)
}

// ---- request reading ----

// registryInput is the properties of a registry create or update, read and type-checked.
type registryInput struct {
	name, ecosystem, description, emoji, color opt[string]
	oidcPolicy                                 opt[string] // normalised to text; see readOIDCPolicy
	public                                     opt[bool]
	teamIDs                                    opt[[]string]
}

func readRegistryInput(in *jsonObject) (registryInput, validationErrors) {
	v := registryInput{
		name: in.String("name"), ecosystem: in.String("ecosystem"), description: in.String("description"),
		emoji: in.String("emoji"), color: in.String("color"), public: in.Bool("public"),
	}
	v.teamIDs = in.Strings("team_ids") // stored by a create only; see the file comment
	problems := in.Problems()
	v.oidcPolicy = readOIDCPolicy(in, &problems)
	checkOIDCPolicy(&problems, v.oidcPolicy.Value)
	return v, problems
}

// checkOIDCPolicy records a policy text that is not a YAML (or JSON) document, or is longer than a
// configuration may be. "" is no policy.
func checkOIDCPolicy(problems *validationErrors, policy string) {
	if policy == "" {
		return
	}
	configurationTooLong(problems, "oidc_policy", len(policy))
	var doc any
	if err := yaml.Unmarshal([]byte(policy), &doc); err != nil {
		problems.add("oidc_policy", "is not valid YAML or JSON: "+err.Error())
	}
}

// readOIDCPolicy reads oidc_policy given as a string or as an array of policy statements (kept as compact
// JSON text). An empty array reads like null.
func readOIDCPolicy(in *jsonObject, problems *validationErrors) opt[string] {
	raw, ok := in.raw["oidc_policy"]
	if !ok {
		return opt[string]{}
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case bytes.Equal(raw, []byte("null")):
		return opt[string]{Set: true, Null: true}
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return opt[string]{Set: true, Value: s}
		}
	case len(raw) > 0 && raw[0] == '[':
		var statements []map[string]any
		if err := json.Unmarshal(raw, &statements); err == nil {
			if len(statements) == 0 {
				return opt[string]{Set: true, Null: true}
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, raw); err == nil {
				return opt[string]{Set: true, Value: compact.String()}
			}
		}
	}
	problems.add("oidc_policy", "must be a string or an array of policy statements")
	return opt[string]{}
}

// checkEcosystem records a problem unless eco is one of registryEcosystems.
func checkEcosystem(problems *validationErrors, eco string) {
	if !registryEcosystems[strings.ToLower(eco)] {
		problems.add("ecosystem", "is not included in the list")
	}
}

// nullableString applies a property to a nullable field: absent leaves it, null or "" makes it null.
func nullableString(dst **string, v opt[string]) {
	if !v.Set {
		return
	}
	if v.Value == "" {
		*dst = nil
		return
	}
	*dst = stringPtr(v.Value)
}

// findRegistry finds the registry of the path's slug: 404 "No registry found". A lock must be held.
func (st *Store) findRegistry(org string, r *http.Request) (*registryRecord, *apiError) {
	reg := st.registryBySlug(org, r.PathValue("registry"))
	if reg == nil {
		return nil, errNotFound("registry")
	}
	return reg, nil
}

// ---- handlers ----

func (s *Server) listRegistries(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRegistries, func(org string) (any, *apiError) {
		out := []registryView{}
		for _, reg := range paginate(w, r, s.store.registriesOf(org)) {
			out = append(out, s.store.renderRegistry(baseURL(r), reg))
		}
		return out, nil
	})
}

func (s *Server) getRegistry(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRegistries, func(org string) (any, *apiError) {
		reg, err := s.store.findRegistry(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.renderRegistry(baseURL(r), reg), nil
	})
}

// checkRegistryName records a blank name, or one that derives no slug, and returns the slug it derives.
func checkRegistryName(problems *validationErrors, name string) string {
	slug := slugify(name)
	switch {
	case name == "":
		problems.addBlank("name")
	case slug == "":
		problems.add("name", "must contain a letter or digit")
	}
	return slug
}

func (s *Server) createRegistry(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteRegistries, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		v, problems := readRegistryInput(in)
		slug := checkRegistryName(&problems, v.name.Value)
		if v.ecosystem.Value == "" {
			problems.addBlank("ecosystem")
		} else {
			checkEcosystem(&problems, v.ecosystem.Value)
		}
		if slug != "" && s.store.registryBySlug(org.slug, slug) != nil {
			problems.add("name", "has already been taken")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		id := newID()
		reg := &registryRecord{
			seq: s.store.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("Registry", id), slug: slug,
			name: v.name.Value, ecosystem: v.ecosystem.Value, createdAt: s.store.timestamp(),
		}
		nullableString(&reg.description, v.description)
		nullableString(&reg.emoji, v.emoji)
		nullableString(&reg.color, v.color)
		nullableString(&reg.oidcPolicy, v.oidcPolicy)
		reg.public = v.public.Value
		s.store.registries.registries.insert(reg)
		s.store.grantRegistryTeams(reg, v.teamIDs.Value)
		return s.store.renderRegistry(baseURL(r), reg), nil
	})
}

func (s *Server) updateRegistry(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteRegistries, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		v, problems := readRegistryInput(in)
		slug := slugify(v.name.Value)
		if v.name.Set {
			slug = checkRegistryName(&problems, v.name.Value)
		}
		reg, err := s.store.findRegistry(org.slug, r)
		if err != nil {
			return nil, err
		}
		if v.ecosystem.Set && !strings.EqualFold(v.ecosystem.Value, reg.ecosystem) {
			problems.add("ecosystem", "cannot be changed")
		}
		if slug != "" {
			if other := s.store.registryBySlug(org.slug, slug); other != nil && other != reg {
				problems.add("name", "has already been taken")
			}
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		if v.name.Value != "" {
			s.store.registries.registries.rename(reg, func() { reg.name, reg.slug = v.name.Value, slug })
		}
		nullableString(&reg.description, v.description)
		nullableString(&reg.emoji, v.emoji)
		nullableString(&reg.color, v.color)
		nullableString(&reg.oidcPolicy, v.oidcPolicy)
		if v.public.Given() {
			reg.public = v.public.Value
		}
		return s.store.renderRegistry(baseURL(r), reg), nil
	})
}

// deleteRegistryHandler answers 200 with the registry it removed, as the service does, so it is a serveAct
// rather than a serveDelete.
func (s *Server) deleteRegistryHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeDeleteRegistries, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		reg, err := s.store.findRegistry(org.slug, r)
		if err != nil {
			return nil, err
		}
		out := s.store.renderRegistry(baseURL(r), reg)
		s.store.deleteRegistry(reg)
		return out, nil
	})
}

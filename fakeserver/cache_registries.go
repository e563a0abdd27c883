package fakeserver

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Cluster cache registries (https://buildkite.com/docs/apis/rest-api/clusters/cache-registries):
// /clusters/{id}/cache-registries, with read_clusters and write_clusters. Member routes take only the
// registry's UUID (a slug is a 404). The listing is cursor-paged ({"items", "links": {"self", "next"}}, by
// slug; per_page 30 by default, at most 100; after or before, not both). Every cluster has a registry named
// Default, which cannot be deleted (422). The policy is validated and normalized: missing sections filled, a
// string action made a list, null names and conditions dropped; omitted or null on create it is the default
// (unrestricted) policy, null on update denies everything (rendered null).
//
// Choices where the facts are silent: the Default registry is made on the first request that reaches the
// cluster's registries (its created_at is then); the cursor is a registry's UUID; a non-administrator is
// refused (403) as one without permission to manage the cluster; a body that is not application/json is a
// 415 when it has a Content-Type; deleting a cluster deletes its registries; the cache store is named
// `agent_managed` and cannot be set.

// KindCacheRegistry is a cluster cache registry, for Store.Exists and Store.Remove, keyed
// "<cluster id>/<registry uuid>".
const KindCacheRegistry Kind = "cache_registry"

func init() {
	registerKind(KindCacheRegistry, nestedKey((*Store).cacheRegistry), (*Store).deleteCacheRegistry)
}

// defaultCacheRegistryName is the name of the registry every cluster has.
const defaultCacheRegistryName = "Default"

// defaultCachePolicy is the unrestricted policy a registry gets when none is given.
const defaultCachePolicy = `{"save":{"scopes":{}},"restore":{"scopes":[{}]},"rules":[{"effect":"allow","action":["save"]},{"effect":"allow","action":["restore"]}]}`

// cachePolicyDimensions are what scopes may name.
var cachePolicyDimensions = []string{"branch", "build", "pipeline"}

// ---- state ----

// cacheRegistryState is this area's part of the Store: registries listed by cluster and named by slug in it.
type cacheRegistryState struct {
	registries *table[*cacheRegistryRecord]
	// defaulted are the clusters whose Default registry was made, by cluster id.
	defaulted map[string]bool
}

func newCacheRegistryState() cacheRegistryState {
	return cacheRegistryState{
		registries: newTable(
			func(c *cacheRegistryRecord) []string { return []string{c.clusterID} },
			func(c *cacheRegistryRecord) []string { return []string{nameKey(c.clusterID, "slug", c.slug)} }),
		defaulted: map[string]bool{},
	}
}

func (c *cacheRegistryRecord) recordID() string { return c.id }
func (c *cacheRegistryRecord) recordSeq() int64 { return c.seq }

type cacheRegistryRecord struct {
	seq                  int64
	org, clusterID, id   string
	name, slug           string
	description, emoji   *string
	color                *string
	policy               string // normalized JSON; "null" denies everything
	isDefault            bool
	createdAt, updatedAt time.Time
}

// cacheRegistry returns the registry of org's cluster with the UUID id, or nil. A lock must be held.
func (st *Store) cacheRegistry(org, clusterID, id string) *cacheRegistryRecord {
	if c, ok := st.cacheRegistries.registries.get(strings.ToLower(id)); ok && c.org == org && c.clusterID == strings.ToLower(clusterID) {
		return c
	}
	return nil
}

// deleteCacheRegistry removes c (the Default one too: Store.Remove is the test's hand, not the API's). The
// write lock must be held.
func (st *Store) deleteCacheRegistry(c *cacheRegistryRecord) { st.cacheRegistries.registries.remove(c) }

// deleteCacheRegistriesOf removes every registry of a cluster being deleted. The write lock must be held.
func (st *Store) deleteCacheRegistriesOf(clusterID string) {
	removeAll(st.cacheRegistries.registries, clusterID)
	delete(st.cacheRegistries.defaulted, clusterID)
}

// ensureDefaultCacheRegistry makes the cluster's Default registry the first time its registries are reached.
// The write lock must be held.
func (st *Store) ensureDefaultCacheRegistry(c *clusterRecord) {
	if st.cacheRegistries.defaulted[c.id] {
		return
	}
	st.cacheRegistries.defaulted[c.id] = true
	now := st.timestamp()
	st.cacheRegistries.registries.insert(&cacheRegistryRecord{
		seq: st.nextSeq(), org: c.org, clusterID: c.id, id: newID(), name: defaultCacheRegistryName,
		slug: slugify(defaultCacheRegistryName), policy: defaultCachePolicy, isDefault: true, createdAt: now, updatedAt: now,
	})
}

// CacheRegistryPolicy returns the normalized policy of a registry ("null" when it denies everything), for
// tests; ok is false when there is no such registry.
func (st *Store) CacheRegistryPolicy(org, clusterID, id string) (policy string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if c := st.cacheRegistry(org, clusterID, id); c != nil {
		return c.policy, true
	}
	return "", false
}

// ---- views ----

type cacheRegistryView struct {
	UUID        string          `json:"uuid"`
	Slug        string          `json:"slug"`
	Name        string          `json:"name"`
	Description *string         `json:"description"`
	Emoji       *string         `json:"emoji"`
	Color       *string         `json:"color"`
	Policy      json.RawMessage `json:"policy"`
	Default     bool            `json:"default"`
	CreatedAt   string          `json:"created_at"`
	UpdatedAt   string          `json:"updated_at"`
	URL         string          `json:"url"`
	ClusterURL  string          `json:"cluster_url"`
}

func cacheRegistryViewOf(base string, c *cacheRegistryRecord) cacheRegistryView {
	return cacheRegistryView{
		UUID: c.id, Slug: c.slug, Name: c.name, Description: c.description, Emoji: c.emoji, Color: c.color,
		Policy: json.RawMessage(c.policy), Default: c.isDefault,
		CreatedAt: formatTime(c.createdAt), UpdatedAt: formatTime(c.updatedAt),
		URL:        apiURL(base, "organizations", c.org, "clusters", c.clusterID, "cache-registries", c.id),
		ClusterURL: apiURL(base, "organizations", c.org, "clusters", c.clusterID),
	}
}

type cacheRegistryListView struct {
	Items []cacheRegistryView `json:"items"`
	Links map[string]*string  `json:"links"`
}

// ---- policy ----

// normalizeCachePolicy validates a policy and returns it normalized, or the reason it is invalid.
func normalizeCachePolicy(p map[string]any) (string, string) {
	for k := range p {
		if k != "save" && k != "restore" && k != "rules" {
			return "", "has an unknown key " + strconv.Quote(k)
		}
	}
	out := map[string]any{}
	save, why := policySection(p, "save")
	if why != "" {
		return "", why
	}
	saveScopes, ok := orDefaultValue(save["scopes"], map[string]any{}).(map[string]any)
	if !ok {
		return "", "save.scopes must be an object"
	}
	for dim, v := range saveScopes {
		if !slices.Contains(cachePolicyDimensions, dim) || v != true {
			return "", "save.scopes may only set branch, build or pipeline to true"
		}
	}
	out["save"] = map[string]any{"scopes": saveScopes}
	restore, why := policySection(p, "restore")
	if why != "" {
		return "", why
	}
	restoreScopes, ok := orDefaultValue(restore["scopes"], []any{}).([]any)
	if !ok {
		return "", "restore.scopes must be a list of objects"
	}
	for _, s := range restoreScopes {
		m, ok := s.(map[string]any)
		if !ok {
			return "", "restore.scopes must be a list of objects"
		}
		for dim, v := range m {
			if _, isString := v.(string); !slices.Contains(cachePolicyDimensions, dim) || !isString {
				return "", "restore.scopes may only map branch, build or pipeline to a value"
			}
		}
	}
	out["restore"] = map[string]any{"scopes": restoreScopes}
	rules, why := normalizeCacheRules(orDefaultValue(p["rules"], []any{}))
	if why != "" {
		return "", why
	}
	out["rules"] = rules
	b, _ := json.Marshal(out)
	return string(b), ""
}

func policySection(p map[string]any, name string) (map[string]any, string) {
	v, ok := orDefaultValue(p[name], map[string]any{}).(map[string]any)
	if !ok {
		return nil, name + " must be an object"
	}
	for k := range v {
		if k != "scopes" {
			return nil, name + " has an unknown key " + strconv.Quote(k)
		}
	}
	return v, ""
}

func normalizeCacheRules(v any) ([]any, string) {
	list, ok := v.([]any)
	if !ok {
		return nil, "rules must be a list"
	}
	out := make([]any, 0, len(list))
	for _, r := range list {
		rule, ok := r.(map[string]any)
		if !ok {
			return nil, "rules must be a list of objects"
		}
		n := map[string]any{}
		for k, val := range rule {
			switch k {
			case "name", "when":
				if val == nil {
					continue
				}
				if _, ok := val.(string); !ok {
					return nil, "rules: " + k + " must be a string"
				}
				n[k] = val
			case "effect":
				if val != "allow" {
					return nil, `rules: effect must be "allow"`
				}
				n[k] = val
			case "action":
				actions, why := cacheRuleActions(val)
				if why != "" {
					return nil, why
				}
				n[k] = actions
			default:
				return nil, "rules: unknown key " + strconv.Quote(k)
			}
		}
		if n["effect"] == nil || n["action"] == nil {
			return nil, "rules: each rule needs an effect and an action"
		}
		out = append(out, n)
	}
	return out, ""
}

func cacheRuleActions(v any) ([]any, string) {
	if s, ok := v.(string); ok {
		v = []any{s}
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, `rules: action must be "save", "restore" or a list of them`
	}
	for _, a := range list {
		if a != "save" && a != "restore" {
			return nil, `rules: action must be "save", "restore" or a list of them`
		}
	}
	return list, ""
}

func orDefaultValue(v, def any) any {
	if v == nil {
		return def
	}
	return v
}

// ---- routes and handlers ----

func (s *Server) routeCacheRegistries(mux *routeMux) {
	const list = "/v2/organizations/{org}/clusters/{cluster}/cache-registries"
	const one = list + "/{registry}"
	mux.HandleFunc("GET "+list, s.listCacheRegistries)
	mux.HandleFunc("POST "+list, s.createCacheRegistry)
	mux.HandleFunc("GET "+one, s.getCacheRegistry)
	mux.HandleFunc("PATCH "+one, s.updateCacheRegistry)
	mux.HandleFunc("DELETE "+one, s.deleteCacheRegistryHandler)
}

// cacheRegistries runs fn, under the write lock (the Default registry may be made), once the token's user is
// found to manage the path's cluster. Its answer is written with status.
func (s *Server) cacheRegistries(w http.ResponseWriter, r *http.Request, scope string, status int,
	fn func(org orgRecord, c *clusterRecord) (any, *apiError)) {
	s.serveAct(w, r, scope, status, func(org orgRecord, user userRecord) (any, *apiError) {
		c := s.store.cluster(org.slug, strings.ToLower(r.PathValue("cluster")))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errForbidden()
		}
		s.store.ensureDefaultCacheRegistry(c)
		return fn(org, c)
	})
}

func (s *Server) listCacheRegistries(w http.ResponseWriter, r *http.Request) {
	s.cacheRegistries(w, r, scopeReadClusters, http.StatusOK, func(_ orgRecord, c *clusterRecord) (any, *apiError) {
		items := slices.Clone(s.store.cacheRegistries.registries.list(c.id))
		sort.Slice(items, func(i, j int) bool { return items[i].slug < items[j].slug })
		page, more, err := cursorPageOf(r, items, func(c *cacheRegistryRecord) string { return c.id })
		if err != nil {
			return nil, err
		}
		out := cacheRegistryListView{Items: []cacheRegistryView{}}
		for _, reg := range page {
			out.Items = append(out.Items, cacheRegistryViewOf(baseURL(r), reg))
		}
		self := baseURL(r) + r.URL.RequestURI()
		out.Links = map[string]*string{"self": &self, "next": nil}
		if more && len(page) > 0 {
			next := cursorLink(r, "after", page[len(page)-1].id)
			out.Links["next"] = &next
		}
		return out, nil
	})
}

func (s *Server) getCacheRegistry(w http.ResponseWriter, r *http.Request) {
	s.cacheRegistries(w, r, scopeReadClusters, http.StatusOK, func(org orgRecord, c *clusterRecord) (any, *apiError) {
		reg := s.store.cacheRegistry(org.slug, c.id, r.PathValue("registry"))
		if reg == nil {
			return nil, errNotFound("cache registry")
		}
		return cacheRegistryViewOf(baseURL(r), reg), nil
	})
}

// cacheRegistryInput is what a create or update body says.
type cacheRegistryInput struct {
	name, description, emoji, color opt[string]
	policy                          opt[map[string]any]
	normalized                      string
}

// readCacheRegistryInput reads and checks a body; update tells an update's rules from a create's.
func readCacheRegistryInput(in *jsonObject, update bool) (cacheRegistryInput, *apiError) {
	c := cacheRegistryInput{name: in.String("name"), description: in.String("description"), emoji: in.String("emoji"),
		color: in.String("color"), policy: in.Object("policy")}
	problems := in.Problems()
	for k := range in.raw {
		switch k {
		case "name", "description", "emoji", "color", "policy":
		case "uuid", "cache_store", "store":
			if update {
				problems.add(k, "cannot be changed")
				continue
			}
			problems.add(k, "is not a supported field")
		default:
			problems.add(k, "is not a supported field")
		}
	}
	if (!update || c.name.Set) && strings.TrimSpace(c.name.Value) == "" {
		problems.addBlank("name")
	}
	if c.policy.Given() {
		normalized, why := normalizeCachePolicy(c.policy.Value)
		if why != "" {
			problems.add("policy", "is invalid: "+why)
		}
		c.normalized = normalized
	}
	if len(problems) > 0 {
		return c, errValidation(problems)
	}
	return c, nil
}

// parseJSONObject is parseObject for a body that must be application/json (415 otherwise, when a type is given).
func parseJSONObject(r *http.Request) (*jsonObject, *apiError) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, newMessageError(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		}
	}
	return parseObject(r.Body)
}

func (s *Server) createCacheRegistry(w http.ResponseWriter, r *http.Request) {
	in, bad := parseJSONObject(r) // a bad body is answered after the token and the cluster are checked
	s.cacheRegistries(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, c *clusterRecord) (any, *apiError) {
		if bad != nil {
			return nil, bad
		}
		input, err := readCacheRegistryInput(in, false)
		if err != nil {
			return nil, err
		}
		reg := &cacheRegistryRecord{seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: newID(), policy: defaultCachePolicy}
		if err := s.store.applyCacheRegistryInput(reg, input, true); err != nil {
			return nil, err
		}
		reg.createdAt = reg.updatedAt
		s.store.cacheRegistries.registries.insert(reg)
		return cacheRegistryViewOf(baseURL(r), reg), nil
	})
}

// applyCacheRegistryInput changes reg as input says, refusing a slug its cluster already has. The write
// lock must be held.
func (st *Store) applyCacheRegistryInput(reg *cacheRegistryRecord, input cacheRegistryInput, creating bool) *apiError {
	if input.name.Given() {
		slug := slugify(input.name.Value)
		if other, ok := st.cacheRegistries.registries.lookup(nameKey(reg.clusterID, "slug", slug)); ok && other != reg {
			return errValidation(validationErrors{{"name", "has already been taken (slug " + slug + ")"}})
		}
		st.cacheRegistries.registries.rename(reg, func() { reg.name, reg.slug = input.name.Value, slug })
	}
	for _, f := range []struct {
		in  opt[string]
		dst **string
	}{{input.description, &reg.description}, {input.emoji, &reg.emoji}, {input.color, &reg.color}} {
		switch {
		case f.in.Null:
			*f.dst = nil
		case f.in.Set:
			v := f.in.Value
			*f.dst = &v
		}
	}
	switch {
	case input.policy.Null && creating:
		// null on create is the default policy
	case input.policy.Null:
		reg.policy = "null"
	case input.policy.Set:
		reg.policy = input.normalized
	}
	reg.updatedAt = st.timestamp()
	return nil
}

func (s *Server) updateCacheRegistry(w http.ResponseWriter, r *http.Request) {
	in, bad := parseJSONObject(r) // a bad body is answered after the token and the cluster are checked
	s.cacheRegistries(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, c *clusterRecord) (any, *apiError) {
		if bad != nil {
			return nil, bad
		}
		reg := s.store.cacheRegistry(org.slug, c.id, r.PathValue("registry"))
		if reg == nil {
			return nil, errNotFound("cache registry")
		}
		input, err := readCacheRegistryInput(in, true)
		if err != nil {
			return nil, err
		}
		if err := s.store.applyCacheRegistryInput(reg, input, false); err != nil {
			return nil, err
		}
		return cacheRegistryViewOf(baseURL(r), reg), nil
	})
}

func (s *Server) deleteCacheRegistryHandler(w http.ResponseWriter, r *http.Request) {
	s.cacheRegistries(w, r, scopeWriteClusters, http.StatusNoContent, func(org orgRecord, c *clusterRecord) (any, *apiError) {
		reg := s.store.cacheRegistry(org.slug, c.id, r.PathValue("registry"))
		if reg == nil {
			return nil, errNotFound("cache registry")
		}
		if reg.isDefault {
			return nil, errUnprocessable("The cluster's default cache registry cannot be deleted")
		}
		s.store.deleteCacheRegistry(reg)
		return nil, nil
	})
}

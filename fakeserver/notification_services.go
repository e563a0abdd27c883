package fakeserver

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Notification services (https://buildkite.com/docs/apis/rest-api/organizations/notification-services): where
// an organization's build events go. REST creates webhooks, Slack incoming webhooks, Amazon EventBridge,
// Datadog Pipeline Visibility and OpenTelemetry tracing; Slack Workspace and Linear are connected in the web
// interface (Store.AddNotificationService seeds them) and can then be read, updated, enabled, disabled and
// deleted. Secrets: a webhook token is shown in full; a Datadog API key and an AWS account ID are masked to
// their last four characters; a Slack URL and OpenTelemetry headers are never shown. Sending a masked value
// back keeps the secret. The listing is cursor-paged: {"items": [...], "links": {"self", "next"}}, oldest
// first.

// KindNotificationService is a notification service, for Store.Exists and Store.Remove; its key is its UUID.
const KindNotificationService Kind = "notification_service"

func init() {
	registerKind(KindNotificationService, (*Store).notificationService, (*Store).deleteNotificationService)
}

// ---- state ----

// notificationServiceState is this area's part of the Store.
type notificationServiceState struct {
	services *table[*notificationServiceRecord] // listed by org
}

func newNotificationServiceState() notificationServiceState {
	return notificationServiceState{services: newTable(
		func(n *notificationServiceRecord) []string { return []string{n.org} }, nil)}
}

func (n *notificationServiceRecord) recordID() string { return n.id }
func (n *notificationServiceRecord) recordSeq() int64 { return n.seq }

type notificationServiceRecord struct {
	seq                 int64
	org, id, provider   string
	description         string // "" is shown as null
	enabled             bool
	scope               string
	scopeUUIDs          []string
	branchConfiguration string
	buildStates         map[string]bool
	settings            map[string]any // every key of the provider's settings; a secret in full
	createdAt           time.Time
	createdBy           string
}

// notificationService returns the service of org with id, or nil. A lock must be held.
func (st *Store) notificationService(org, id string) *notificationServiceRecord {
	if n, ok := st.services.services.get(strings.ToLower(id)); ok && n.org == org {
		return n
	}
	return nil
}

func (st *Store) deleteNotificationService(n *notificationServiceRecord) {
	st.services.services.remove(n)
}

// AddNotificationService seeds a service of provider for org, as the web interface connects those REST
// cannot create (slack_workspace, linear), and returns its UUID. settings may be nil.
func (st *Store) AddNotificationService(org, provider string, settings map[string]any) string {
	defer st.edit()()
	n := &notificationServiceRecord{
		seq: st.nextSeq(), org: org, id: newID(), provider: provider, enabled: true, scope: "all",
		buildStates: map[string]bool{}, settings: map[string]any{}, createdAt: st.timestamp(),
	}
	if p, ok := nsProviders[provider]; ok {
		for k, s := range p.settings {
			if s.def != nil {
				n.settings[k] = s.def
			}
		}
	}
	maps.Copy(n.settings, settings)
	st.services.services.insert(n)
	return n.id
}

// NotificationServiceSetting returns the setting key of org's service id as the service holds it, a
// secret in full (what the API masks or never shows), for tests that check what a client sent; ok is false
// when there is no such service or it holds no such setting.
func (st *Store) NotificationServiceSetting(org, id, key string) (value any, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if n := st.notificationService(org, id); n != nil {
		value, ok = n.settings[key]
	}
	return value, ok
}

// ---- views ----

type nsProviderView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type notificationServiceView struct {
	ID                  string          `json:"id"`
	GraphQLID           *string         `json:"graphql_id"`
	URL                 string          `json:"url"`
	Provider            nsProviderView  `json:"provider"`
	Description         *string         `json:"description"`
	Enabled             bool            `json:"enabled"`
	Scope               string          `json:"scope"`
	ScopeUUIDs          []string        `json:"scope_uuids"`
	BranchConfiguration string          `json:"branch_configuration"`
	BuildStates         map[string]bool `json:"build_states"`
	Settings            map[string]any  `json:"settings"`
	CreatedAt           string          `json:"created_at"`
	CreatedBy           *userView       `json:"created_by"`
}

// maskSecret shows the last four characters of a secret, as the service does: XXXXXXXX9012.
func maskSecret(s string) string {
	if len(s) <= 4 {
		return strings.Repeat("X", 8)
	}
	return strings.Repeat("X", 8) + s[len(s)-4:]
}

func (st *Store) notificationServiceView(base string, n *notificationServiceRecord) notificationServiceView {
	p := nsProviders[n.provider]
	v := notificationServiceView{
		ID: n.id, URL: apiURL(base, "organizations", n.org, "services", n.id),
		Provider: nsProviderView{ID: n.provider, Name: p.name}, Enabled: n.enabled, Scope: n.scope,
		ScopeUUIDs: nonNil(slices.Clone(n.scopeUUIDs)), BranchConfiguration: n.branchConfiguration,
		BuildStates: map[string]bool{}, Settings: map[string]any{},
		CreatedAt: formatTime(n.createdAt), CreatedBy: st.userSummary(n.createdBy),
	}
	if p.graphQLType != "" {
		v.GraphQLID = stringPtr(graphQLID(p.graphQLType, n.id))
	}
	if n.description != "" {
		v.Description = stringPtr(n.description)
	}
	for _, b := range nsBuildStates {
		v.BuildStates[b] = n.buildStates[b]
	}
	for k, s := range p.settings {
		val, ok := n.settings[k]
		switch {
		case s.shown == "hidden":
			continue
		case s.shown == "masked" && ok && val != nil:
			val = maskSecret(fmt.Sprint(val))
		}
		if !ok {
			val = nil
		}
		v.Settings[k] = val
	}
	return v
}

// ---- routes ----

func (s *Server) routeNotificationServices(mux *routeMux) {
	const services = "/v2/organizations/{org}/services"
	const service = services + "/{service}"
	mux.HandleFunc("GET "+services, s.listNotificationServices)
	mux.HandleFunc("POST "+services, s.createNotificationService)
	mux.HandleFunc("GET "+service, s.getNotificationService)
	mux.HandleFunc("PATCH "+service, s.updateNotificationService)
	mux.HandleFunc("DELETE "+service, s.deleteNotificationServiceHandler)
	mux.HandleFunc("PUT "+service+"/enable", s.enableNotificationService(true))
	mux.HandleFunc("PUT "+service+"/disable", s.enableNotificationService(false))
}

// servicesAllowed is the rule every endpoint adds to the token's: its user is an administrator (403
// otherwise), checked before anything else. A lock must be held.
func (s *Server) servicesAllowed(org orgRecord, user userRecord) *apiError {
	if !s.store.isAdmin(org.slug, user.id) {
		return errForbidden()
	}
	return nil
}

// nsCursorPage returns the page of items a listing's per_page, after and before ask for, and whether items
// follow it. An unknown cursor is an error.
func nsCursorPage(r *http.Request, items []*notificationServiceRecord) ([]*notificationServiceRecord, bool, *apiError) {
	q := r.URL.Query()
	perPage := min(positiveInt(q.Get("per_page"), defaultPerPage), maxPerPage)
	index := func(id string) int {
		return slices.IndexFunc(items, func(n *notificationServiceRecord) bool { return n.id == strings.ToLower(id) })
	}
	start, end := 0, len(items)
	if after := q.Get("after"); after != "" {
		i := index(after)
		if i < 0 {
			return nil, false, errBadRequest("Invalid cursor: after")
		}
		start = i + 1
	}
	if before := q.Get("before"); before != "" {
		i := index(before)
		if i < 0 {
			return nil, false, errBadRequest("Invalid cursor: before")
		}
		end = min(end, i)
		if q.Get("after") == "" {
			start = max(0, end-perPage)
		}
	}
	if start > end {
		start = end
	}
	stop := min(start+perPage, end)
	return items[start:stop], stop < len(items), nil
}

type nsListView struct {
	Items []notificationServiceView `json:"items"`
	Links map[string]*string        `json:"links"`
}

// ---- handlers ----

func (s *Server) listNotificationServices(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadNotificationServices, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := s.servicesAllowed(org, user); err != nil {
			return nil, err
		}
		items, more, err := nsCursorPage(r, s.store.services.services.list(org.slug))
		if err != nil {
			return nil, err
		}
		out := nsListView{Items: []notificationServiceView{}}
		for _, n := range items {
			out.Items = append(out.Items, s.store.notificationServiceView(baseURL(r), n))
		}
		self := baseURL(r) + r.URL.RequestURI()
		out.Links = map[string]*string{"self": &self, "next": nil}
		if more && len(items) > 0 {
			q := r.URL.Query()
			q.Del("before")
			q.Set("after", items[len(items)-1].id)
			next := baseURL(r) + r.URL.EscapedPath() + "?" + q.Encode()
			out.Links["next"] = &next
		}
		return out, nil
	})
}

func (s *Server) getNotificationService(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadNotificationServices, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := s.servicesAllowed(org, user); err != nil {
			return nil, err
		}
		n := s.store.notificationService(org.slug, r.PathValue("service"))
		if n == nil {
			return nil, errNotFound("notification service")
		}
		return s.store.notificationServiceView(baseURL(r), n), nil
	})
}

func (s *Server) createNotificationService(w http.ResponseWriter, r *http.Request) {
	s.serveWriteChecked(w, r, scopeWriteNotificationServices, http.StatusCreated, s.servicesAllowed,
		func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
			n, problems := readNSInput(in)
			p, known := nsProviders[n.provider.Value]
			switch {
			case !n.provider.Given() || n.provider.Value == "":
				problems.addBlank("provider")
			case !known:
				problems.add("provider", n.provider.Value+" is not a known provider")
			case !p.creatable:
				problems.add("provider", n.provider.Value+" is not available through the API: connect it in the web interface")
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			if p.enterprise && !s.store.orgs[org.slug].enterprise {
				return nil, newMessageError(http.StatusForbidden, "The "+p.name+" notification service is only available on the Enterprise plan")
			}
			scope := "all"
			if n.scope.Given() {
				scope = n.scope.Value
			}
			ids := lowerAll(n.scopeUUIDs.Value)
			s.store.checkScopeUUIDs(org.slug, scope, ids, &problems)
			rec := &notificationServiceRecord{
				org: org.slug, id: newID(), provider: n.provider.Value, description: n.description.Value,
				enabled: true, scope: scope, scopeUUIDs: ids, branchConfiguration: n.branch.Value,
				buildStates: map[string]bool{}, settings: map[string]any{}, createdBy: user.id,
			}
			for k, v := range n.buildStates.Value {
				rec.buildStates[k], _ = v.(bool)
			}
			applySettings(p, rec.settings, n.settings.Value, true, &problems)
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			if rec.provider == nsWebhook && rec.settings["token"] == nil {
				rec.settings["token"] = newPortalToken()[5:]
			}
			if rec.provider == nsEventBridge {
				rec.settings["event_source_name"] = "aws.partner/buildkite.com/" + org.slug + "/" + rec.id
			}
			rec.seq, rec.createdAt = s.store.nextSeq(), s.store.timestamp()
			s.store.services.services.insert(rec)
			return s.store.notificationServiceView(baseURL(r), rec), nil
		})
}

func (s *Server) updateNotificationService(w http.ResponseWriter, r *http.Request) {
	s.serveWriteChecked(w, r, scopeWriteNotificationServices, http.StatusOK, s.servicesAllowed,
		func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
			n, problems := readNSInput(in)
			rec := s.store.notificationService(org.slug, r.PathValue("service"))
			if rec == nil {
				return nil, errNotFound("notification service")
			}
			if n.provider.Set && n.provider.Value != rec.provider {
				problems.add("provider", "cannot be changed")
			}
			p := nsProviders[rec.provider]
			scope, ids := rec.scope, rec.scopeUUIDs
			if n.scope.Given() {
				scope = n.scope.Value
				if scope == "all" && !n.scopeUUIDs.Set {
					ids = nil
				}
			}
			if n.scopeUUIDs.Set {
				ids = lowerAll(n.scopeUUIDs.Value)
			}
			if scope != rec.scope || n.scopeUUIDs.Set {
				s.store.checkScopeUUIDs(org.slug, scope, ids, &problems)
			}
			settings := maps.Clone(rec.settings)
			if n.settings.Given() {
				applySettings(p, settings, n.settings.Value, false, &problems)
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			setString(&rec.description, n.description)
			setString(&rec.branchConfiguration, n.branch)
			rec.scope, rec.scopeUUIDs, rec.settings = scope, ids, settings
			for k, v := range n.buildStates.Value {
				rec.buildStates[k], _ = v.(bool)
			}
			return s.store.notificationServiceView(baseURL(r), rec), nil
		})
}

func (s *Server) enableNotificationService(enabled bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.serveAct(w, r, scopeWriteNotificationServices, http.StatusOK, func(org orgRecord, user userRecord) (any, *apiError) {
			if err := s.servicesAllowed(org, user); err != nil {
				return nil, err
			}
			rec := s.store.notificationService(org.slug, r.PathValue("service"))
			if rec == nil {
				return nil, errNotFound("notification service")
			}
			rec.enabled = enabled
			return s.store.notificationServiceView(baseURL(r), rec), nil
		})
	}
}

func (s *Server) deleteNotificationServiceHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteNotificationServices, http.StatusNoContent, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := s.servicesAllowed(org, user); err != nil {
			return nil, err
		}
		rec := s.store.notificationService(org.slug, r.PathValue("service"))
		if rec == nil {
			return nil, errNotFound("notification service")
		}
		s.store.deleteNotificationService(rec)
		return nil, nil
	})
}

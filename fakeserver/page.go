package fakeserver

import (
	"crypto/subtle"
	"fmt"
	"html/template"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"time"
)

// The page at GET /_emulator/: plain HTML, no script and no external asset, for a person to look at what
// the emulator holds. Per organization, its objects by type with their IDs; the newest requests of the log
// with their status; the fault and limit settings in force. It shows names, IDs and states only, chosen
// field by field below: never an access token, an agent or registry token's secret, a portal's token, a
// suite's API token, a cluster secret's value or a notification service's settings.
//
// Without Options.AdminToken it is open, like the emulator itself; with one, it needs the admin token, in
// any of three forms a browser can send: "Authorization: Bearer <token>", HTTP basic authentication with
// the token as the password (any user name; the browser asks for it after the 401), or ?token=<token> in
// the URL (which the emulator's own log line shows redacted).

// pageRequests is how many of the newest requests the page shows.
const pageRequests = 100

// pageObject is one row of an organization's objects.
type pageObject struct{ ID, Name, Detail string }

// pageGroup is the objects of one type.
type pageGroup struct {
	Type    string
	Objects []pageObject
}

// pageOrg is one organization's part of the page.
type pageOrg struct {
	Slug, Name, ID string
	Groups         []pageGroup
}

// pageSetting is one setting in force.
type pageSetting struct{ Name, Value string }

// pageData is what the page shows.
type pageData struct {
	Orgs     []pageOrg
	Requests []Request
	Total    int
	Settings []pageSetting
}

// controlPage serves the page: open without an admin token, else only with it (401 asks for basic
// authentication, so a browser prompts for it).
func (s *Server) controlPage(w http.ResponseWriter, r *http.Request) {
	if s.opts.AdminToken != "" && !s.pageAdmin(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="fakeserver controls (the admin token is the password)"`)
		writeError(w, errAdminUnauthorized())
		return
	}
	var data pageData
	_ = s.store.view(func() *apiError {
		data.Orgs = s.store.pageOrgs()
		return nil
	})
	log := s.Requests()
	data.Total = len(log)
	if len(log) > pageRequests {
		log = log[len(log)-pageRequests:]
	}
	for i := len(log) - 1; i >= 0; i-- { // newest first
		data.Requests = append(data.Requests, log[i])
	}
	data.Settings = s.pageSettings()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	_ = pageTemplate.Execute(w, data)
}

// pageAdmin reports whether r carries the admin token in one of the page's three forms.
func (s *Server) pageAdmin(r *http.Request) bool {
	if s.isAdmin(r) {
		return true
	}
	matches := func(token string) bool {
		return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.AdminToken)) == 1
	}
	if _, password, ok := r.BasicAuth(); ok && matches(password) {
		return true
	}
	return matches(r.URL.Query().Get("token"))
}

// pageOrgs lists every organization's objects, type by type. A read lock must be held.
func (st *Store) pageOrgs() []pageOrg {
	slugs := make([]string, 0, len(st.orgs))
	for slug := range st.orgs {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	var out []pageOrg
	for _, slug := range slugs {
		o := st.orgs[slug]
		po := pageOrg{Slug: o.slug, Name: o.name, ID: o.id}
		add := func(typ string, objs []pageObject) {
			if len(objs) > 0 {
				po.Groups = append(po.Groups, pageGroup{Type: typ, Objects: objs})
			}
		}
		add("Members", st.pageMembers(o))
		add("Invitations", pageRows(st.invitations.invitations, slug, func(i *invitationRecord) pageObject {
			return pageObject{i.id, i.email, i.role + ", " + i.state}
		}))
		add("Teams", pageRows(st.teams.teams, slug, func(t *teamRecord) pageObject { return pageObject{t.id, t.name, t.slug} }))
		add("Team members", st.pageTeamLinks(st.teams.members, slug, func(id string) string { return st.userName(id) }))
		add("Team pipelines", st.pageTeamLinks(st.teams.pipelines, slug, func(id string) string { return st.pipelineSlug(slug, id) }))
		add("Team suites", st.pageTeamLinks(st.teams.suites, slug, func(id string) string { return st.suiteSlug(slug, id) }))
		add("Clusters", pageRows(st.clusters.clusters, slug, func(c *clusterRecord) pageObject { return pageObject{c.id, c.name, ""} }))
		add("Cluster queues", pageRows(st.clusters.queues, slug, func(q *queueRecord) pageObject {
			detail := "cluster " + st.clusterName(slug, q.clusterID)
			if q.paused {
				detail += ", dispatch paused"
			}
			return pageObject{q.id, q.key, detail}
		}))
		add("Cluster agent tokens", pageRows(st.clusters.tokens, slug, func(t *clusterTokenRecord) pageObject {
			return pageObject{t.id, t.description, "cluster " + st.clusterName(slug, t.clusterID)}
		}))
		add("Cluster secrets", pageRows(st.secrets.secrets, slug, func(sec *clusterSecretRecord) pageObject {
			return pageObject{sec.id, sec.key, "cluster " + st.clusterName(slug, sec.clusterID)}
		}))
		add("Cluster maintainers", pageRows(st.maintainers.maintainers, slug, func(m *clusterMaintainerRecord) pageObject {
			actor := st.userName(m.actorID)
			if team, ok := st.teams.teams.get(m.actorID); ok {
				actor = team.slug
			}
			return pageObject{m.id, m.actorType + " " + actor, "cluster " + st.clusterName(slug, m.clusterID)}
		}))
		add("Cache registries", pageRows(st.cacheRegistries.registries, slug, func(c *cacheRegistryRecord) pageObject {
			return pageObject{c.id, c.name, "cluster " + st.clusterName(slug, c.clusterID)}
		}))
		add("Agents", st.pageAgents(slug))
		add("Unclustered agent tokens", pageRows(st.unclusteredTokens.tokens, slug, func(t *unclusteredTokenRecord) pageObject {
			detail := "live"
			if !t.revokedAt.IsZero() {
				detail = "revoked"
			}
			return pageObject{t.id, deref(t.description), detail}
		}))
		add("Pipeline templates", pageRows(st.templates.templates, slug, func(t *templateRecord) pageObject { return pageObject{t.id, t.name, ""} }))
		add("Pipelines", pageRows(st.pipelines.pipelines, slug, func(p *pipelineRecord) pageObject { return pageObject{p.id, p.slug, p.name} }))
		add("Pipeline schedules", pageRows(st.schedules.schedules, slug, func(sc *scheduleRecord) pageObject {
			return pageObject{sc.id, sc.label, "pipeline " + st.pipelineSlug(slug, sc.pipelineID) + ", " + sc.cronline}
		}))
		add("Builds", pageRows(st.builds.builds, slug, func(b *buildRecord) pageObject {
			return pageObject{b.id, st.pipelineSlug(slug, b.pipelineID) + " #" + strconv.Itoa(b.number), b.state}
		}))
		add("Rules", pageRows(st.rules.rules, slug, func(ru *ruleRecord) pageObject {
			return pageObject{ru.id, ru.typ, st.pipelineSlug(slug, ru.sourceID) + " → " + st.pipelineSlug(slug, ru.targetID)}
		}))
		add("Test suites", pageRows(st.suites.suites, slug, func(su *suiteRecord) pageObject { return pageObject{su.id, su.slug, su.name} }))
		add("Package registries", pageRows(st.registries.registries, slug, func(re *registryRecord) pageObject {
			return pageObject{re.id, re.slug, re.ecosystem}
		}))
		add("Registry tokens", pageRows(st.registries.tokens, slug, func(t *registryTokenRecord) pageObject {
			return pageObject{t.id, t.description, "registry " + st.registrySlug(t.registryID)}
		}))
		add("Portals", pageRows(st.portals.portals, slug, func(p *portalRecord) pageObject { return pageObject{p.id, p.slug, p.name} }))
		add("Notification services", pageRows(st.services.services, slug, func(n *notificationServiceRecord) pageObject {
			detail := "disabled"
			if n.enabled {
				detail = "enabled"
			}
			return pageObject{n.id, n.provider, detail}
		}))
		if b := st.banners.byOrg[slug]; b != nil {
			add("Banner", []pageObject{{b.id, b.message, ""}})
		}
		out = append(out, po)
	}
	return out
}

// pageRows lists org's records of t in creation order.
func pageRows[T record](t *table[T], org string, row func(T) pageObject) []pageObject {
	var recs []T
	for _, rec := range t.byID {
		if recordOrg(rec) == org {
			recs = append(recs, rec)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].recordSeq() < recs[j].recordSeq() })
	out := make([]pageObject, 0, len(recs))
	for _, rec := range recs {
		out = append(out, row(rec))
	}
	return out
}

// recordOrg is the organization a record belongs to: every record type keeps it in its org field.
func recordOrg(rec any) string {
	v := reflect.ValueOf(rec)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("org"); f.IsValid() && f.Kind() == reflect.String {
		return f.String()
	}
	return ""
}

// pageAgents lists org's agents in the order they were made.
func (st *Store) pageAgents(org string) []pageObject {
	var agents []*agentRecord
	for _, a := range st.metrics.agents {
		if a.org == org {
			agents = append(agents, a)
		}
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].seq < agents[j].seq })
	out := make([]pageObject, 0, len(agents))
	for _, a := range agents {
		out = append(out, pageObject{a.id, a.name, a.state})
	}
	return out
}

// pageMembers lists org's members.
func (st *Store) pageMembers(o *orgRecord) []pageObject {
	var out []pageObject
	for id, m := range o.members {
		role := "member"
		if m.admin {
			role = "admin"
		}
		out = append(out, pageObject{id, st.userName(id), role})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pageTeamLinks lists org's team associations of one kind: the association's key (as Store.Exists takes
// it, "<team id>/<other id>", which is also the provider's ID), the team and the other side, named by other.
func (st *Store) pageTeamLinks(t *table[*teamLinkRecord], org string, other func(id string) string) []pageObject {
	return pageRows(t, org, func(l *teamLinkRecord) pageObject {
		team := l.teamID
		if rec, ok := st.teams.teams.get(l.teamID); ok {
			team = rec.slug
		}
		detail := ""
		if l.uuid != "" {
			detail = "uuid " + l.uuid
		}
		return pageObject{l.recordID(), team + " ↔ " + other(l.otherID), detail}
	})
}

func (st *Store) userName(id string) string {
	if u := st.users[id]; u != nil {
		return u.name + " <" + u.email + ">"
	}
	return id
}

func (st *Store) pipelineSlug(org, id string) string {
	if p, ok := st.pipelines.pipelines.get(id); ok && p.org == org {
		return p.slug
	}
	return id
}

func (st *Store) suiteSlug(org, id string) string {
	if su, ok := st.suites.suites.get(id); ok && su.org == org {
		return su.slug
	}
	return id
}

func (st *Store) clusterName(org, id string) string {
	if c, ok := st.clusters.clusters.get(id); ok && c.org == org {
		return c.name
	}
	return id
}

func (st *Store) registrySlug(id string) string {
	if re, ok := st.registries.registries.get(id); ok {
		return re.slug
	}
	return id
}

// pageSettings are the fault and limit settings in force.
func (s *Server) pageSettings() []pageSetting {
	o := s.opts
	rate := "off (headers only)"
	if o.RateLimit > 0 {
		rate = fmt.Sprintf("%d requests per %s per token", o.RateLimit, o.RateLimitWindow)
	}
	out := []pageSetting{
		{"REST rate limit", rate},
		{"GraphQL complexity per query", fmt.Sprintf("at most %d", gqlMaxComplexity)},
		{"Request body", fmt.Sprintf("at most %d bytes", maxBodyBytes)},
		{"Request log", fmt.Sprintf("the newest %d requests", newRequestLog(o.RequestLogSize).size)},
		{"Test routes (/_fake/)", onOff(!o.DisableTestRoutes)},
		{"Admin token", onOff(o.AdminToken != "")},
		{"State file", orNone(o.StateFile)},
	}
	// The shares as configured (every field set but the aimed faults, which are listed as armed now).
	if o.Faults.shares() {
		v := reflect.ValueOf(o.Faults)
		for i := range v.NumField() {
			f, field := v.Field(i), v.Type().Field(i)
			if !field.IsExported() || f.Kind() == reflect.Func || f.Kind() == reflect.Slice || f.IsZero() {
				continue
			}
			val := fmt.Sprint(f.Interface())
			if d, ok := f.Interface().(time.Duration); ok {
				val = d.String()
			}
			out = append(out, pageSetting{"Faults: " + field.Name, val})
		}
	}
	armed := 0
	if fi := s.faults; fi != nil {
		fi.mu.Lock()
		for _, a := range fi.aimed {
			out = append(out, pageSetting{"Aimed fault", fmt.Sprintf("%s (matched %d so far)", a.AimedFault, a.seen)})
			armed++
		}
		fi.mu.Unlock()
	}
	if !o.Faults.shares() && armed == 0 {
		out = append(out, pageSetting{"Faults", "none"})
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"clock": func(t time.Time) string { return t.UTC().Format("15:04:05.000") },
	"count": strconv.Itoa,
	"class": func(status int) string { return "s" + strconv.Itoa(status/100) },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Buildkite emulator</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1em; margin: 1em 0 .3em; }
table { border-collapse: collapse; margin-bottom: .5em; }
th, td { text-align: left; padding: .15em .8em .15em 0; vertical-align: top; }
th { color: #555; font-weight: 600; }
code { font: 12px ui-monospace, monospace; }
.s2 { color: #176f2c; } .s4 { color: #a35b00; } .s5, .s0 { color: #b00020; }
</style>
</head>
<body>
<h1>Buildkite emulator</h1>
<p>What the emulator holds now: objects by type with their IDs, the newest requests, and the settings in force. Tokens and secret values are never shown.</p>
{{range .Orgs}}
<h2 id="org-{{.Slug}}">Organization {{.Name}} (<code>{{.Slug}}</code>, <code>{{.ID}}</code>)</h2>
{{range .Groups}}
<h3>{{.Type}} ({{len .Objects | count}})</h3>
<table>
<tr><th>ID</th><th>Name</th><th></th></tr>
{{range .Objects}}<tr><td><code>{{.ID}}</code></td><td>{{.Name}}</td><td>{{.Detail}}</td></tr>
{{end}}</table>
{{end}}
{{end}}
<h2 id="requests">Requests (the newest {{len .Requests | count}} of {{.Total}} in the log, newest first)</h2>
<table>
<tr><th>Time (UTC)</th><th>Method</th><th>Path</th><th>Status</th><th>GraphQL operation</th><th>Organization</th><th>Fault</th></tr>
{{range .Requests}}<tr><td>{{clock .Time}}</td><td>{{.Method}}</td><td><code>{{.Path}}</code></td><td class="{{class .Status}}">{{.Status}}</td><td>{{.Operation}}</td><td>{{.Org}}</td><td>{{.Fault}}</td></tr>
{{end}}</table>
<h2 id="settings">Settings in force</h2>
<table>
{{range .Settings}}<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>
{{end}}</table>
</body>
</html>
`))

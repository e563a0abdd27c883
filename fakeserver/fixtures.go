package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gopkg.in/yaml.v3"
)

// Fixtures: a file (YAML or JSON) declaring the state a server starts with: organizations and their plan,
// users and memberships, access tokens, agent registration tokens, agents, job counts and test suites.
// examples/fakeserver/fixtures.yaml documents the format with a commented example.

// Fixtures is the content of a fixture file. Pass it as Options.Fixtures; LoadFixtures and ParseFixtures
// read and check one. Every `org` field may be left out when exactly one organization is declared.
type Fixtures struct {
	Organizations []OrganizationFixture `json:"organizations" yaml:"organizations"`
	Users         []UserFixture         `json:"users" yaml:"users"`
	AccessTokens  []AccessTokenFixture  `json:"access_tokens" yaml:"access_tokens"`
	AgentTokens   []AgentTokenFixture   `json:"agent_tokens" yaml:"agent_tokens"`
	Agents        []AgentFixture        `json:"agents" yaml:"agents"`
	Jobs          []QueueJobsFixture    `json:"jobs" yaml:"jobs"`
	Suites        []OrgSuiteFixture     `json:"suites" yaml:"suites"`
	// WebhookIPs is what GET /v2/meta answers: addresses or networks in CIDR notation. Left out, the
	// emulator answers DefaultWebhookIPs; an empty list answers none.
	WebhookIPs []string `json:"webhook_ips" yaml:"webhook_ips"`
}

// OrganizationFixture declares an organization.
type OrganizationFixture struct {
	Slug string `json:"slug" yaml:"slug"` // required
	Name string `json:"name" yaml:"name"` // default: the slug in title case ("my-org" gives "My Org")
	// Plan is enterprise (the default), pro or free; pipeline templates exist only on enterprise.
	Plan string `json:"plan" yaml:"plan"`
	// TeamsEnabled (default true) makes team_ids required when creating a test suite.
	TeamsEnabled *bool `json:"teams_enabled" yaml:"teams_enabled"`
}

// Organization plans a fixture may name.
const (
	PlanEnterprise = "enterprise"
	PlanPro        = "pro"
	PlanFree       = "free"
)

// UserFixture declares a user and the organizations they belong to.
type UserFixture struct {
	// ID is the user's UUID, for a client that names a known user (the official provider's tests name
	// theirs by UUID and GraphQL ID, which is derived from it); default: a new random UUID.
	ID          string              `json:"id,omitempty" yaml:"id,omitempty"`
	Name        string              `json:"name" yaml:"name"`   // required
	Email       string              `json:"email" yaml:"email"` // required, unique; access tokens name users by it
	Memberships []MembershipFixture `json:"memberships" yaml:"memberships"`
}

// MembershipFixture makes a user a member of an organization.
type MembershipFixture struct {
	Org   string `json:"org" yaml:"org"`
	Admin bool   `json:"admin" yaml:"admin"` // administrators manage pipeline templates and see unavailable ones
}

// AccessTokenFixture declares an API access token (Authorization: Bearer <token>).
type AccessTokenFixture struct {
	Token string `json:"token" yaml:"token"` // required, unique
	User  string `json:"user" yaml:"user"`   // required: the e-mail address of a declared user
	// Orgs are the organizations the token sees, each one the user belongs to; default: all of the user's.
	Orgs []string `json:"orgs" yaml:"orgs"`
	// Scopes are required; "all" stands for every scope.
	Scopes Scopes `json:"scopes" yaml:"scopes"`
	// Description is what GET /v2/access-token shows; optional.
	Description string `json:"description,omitempty" yaml:"description,omitempty"`
}

// Scopes are the scopes of an access token: scope names (see AllScopes), where "all" stands for every
// scope. A single string is accepted in place of the list (scopes: all).
type Scopes []string

// UnmarshalJSON accepts a string or an array of strings; an empty array is kept as no scopes (not absent).
func (s *Scopes) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*s = Scopes{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return errors.New("scopes must be a string or an array of strings")
	}
	*s = append(Scopes{}, list...)
	return nil
}

// UnmarshalYAML accepts a string or a sequence of strings; an empty sequence is kept as no scopes.
func (s *Scopes) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var one string
		if err := n.Decode(&one); err != nil {
			return err
		}
		*s = Scopes{one}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return fmt.Errorf("line %d: scopes must be a string or a list of strings", n.Line)
	}
	*s = append(Scopes{}, list...)
	return nil
}

// allScopesName is the scope name standing for every scope.
const allScopesName = "all"

// resolve returns the scopes with "all" expanded.
func (s Scopes) resolve() []string {
	if slices.Contains(s, allScopesName) {
		return AllScopes()
	}
	return append([]string{}, s...)
}

// AgentTokenFixture declares an organization-wide agent registration token (Authorization: Token
// <token>), which authenticates GET /v3/metrics.
type AgentTokenFixture struct {
	Token string `json:"token" yaml:"token"` // required, unique
	Org   string `json:"org" yaml:"org"`
}

// AgentFixture declares a connected agent, counted by the metrics endpoints.
type AgentFixture struct {
	Org  string `json:"org" yaml:"org"`
	Name string `json:"name" yaml:"name"` // required
	// Queue is the queue key (default "default").
	Queue string `json:"queue" yaml:"queue"`
	// Cluster is the ID or name of the agent's cluster; matched when metrics are asked for, so it may name a
	// cluster created through the API later. Empty: an unclustered agent.
	Cluster string `json:"cluster" yaml:"cluster"`
	// State is idle (the default) or busy.
	State string `json:"state" yaml:"state"`
	// Hostname (default: the name), Version (default defaultAgentVersion) and MetaData (tags as
	// "key=value", after the "queue=<queue>" tag every agent has) are what GET .../agents shows.
	Hostname string   `json:"hostname,omitempty" yaml:"hostname,omitempty"`
	Version  string   `json:"version,omitempty" yaml:"version,omitempty"`
	MetaData []string `json:"meta_data,omitempty" yaml:"meta_data,omitempty"`
}

// problems lists what is wrong with a, its organization aside.
func (a AgentFixture) problems() []string {
	var p []string
	if a.Name == "" {
		p = append(p, "name is required")
	}
	if a.State != "" && a.State != agentIdle && a.State != agentBusy {
		p = append(p, fmt.Sprintf("state %q is not idle or busy", a.State))
	}
	return p
}

// QueueJobsFixture declares how many jobs of a queue are in one state, counted by the metrics endpoints.
type QueueJobsFixture struct {
	Org     string `json:"org" yaml:"org"`
	Queue   string `json:"queue" yaml:"queue"`     // queue key (default "default")
	Cluster string `json:"cluster" yaml:"cluster"` // as AgentFixture.Cluster
	State   string `json:"state" yaml:"state"`     // required: scheduled, running or waiting
	Count   int    `json:"count" yaml:"count"`     // zero or more
}

// problems lists what is wrong with j, its organization aside.
func (j QueueJobsFixture) problems() []string {
	var p []string
	switch j.State {
	case metricJobScheduled, metricJobRunning, metricJobWaiting:
	case "":
		p = append(p, "state is required (scheduled, running or waiting)")
	default:
		p = append(p, fmt.Sprintf("state %q is not scheduled, running or waiting", j.State))
	}
	if j.Count < 0 {
		p = append(p, fmt.Sprintf("count %d is negative", j.Count))
	}
	return p
}

// OrgSuiteFixture declares a test suite of an organization with its flaky tests.
type OrgSuiteFixture struct {
	Org          string `json:"org" yaml:"org"`
	SuiteFixture `yaml:",inline"`
}

// ---- reading ----

// LoadFixtures reads and checks a fixture file. A .yaml or .yml file is YAML, a .json file JSON; any other
// name is JSON when it starts with "{" and YAML otherwise.
func LoadFixtures(path string) (*Fixtures, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading fixtures: %w", err)
	}
	var format string
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		format = "yaml"
	case ".json":
		format = "json"
	}
	f, err := ParseFixtures(data, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ParseFixtures decodes and checks fixtures. format is "yaml", "json" or "" (JSON when data starts with
// "{", YAML otherwise). Unknown properties are errors, so a misspelt one is reported rather than ignored;
// every problem of every entry is reported, each naming the entry.
func ParseFixtures(data []byte, format string) (*Fixtures, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("fixtures are empty: declare at least one organization")
	}
	if format == "" {
		format = "yaml"
		if trimmed[0] == '{' {
			format = "json"
		}
	}
	f := &Fixtures{}
	switch format {
	case "yaml":
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(f); err != nil {
			return nil, fmt.Errorf("fixtures are not valid YAML: %w", err)
		}
		var extra any
		if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
			return nil, errors.New("fixtures hold more than one YAML document")
		}
	case "json":
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f); err != nil {
			return nil, fmt.Errorf("fixtures are not valid JSON: %s%w", jsonErrorLine(data, err), err)
		}
		if dec.More() {
			return nil, errors.New("fixtures hold data after the JSON object")
		}
	default:
		return nil, fmt.Errorf("unknown fixture format %q (want yaml or json)", format)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// jsonErrorLine returns "line N: " for a JSON error that knows its offset in data, else "".
func jsonErrorLine(data []byte, err error) string {
	var offset int64
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxErr):
		offset = syntaxErr.Offset
	case errors.As(err, &typeErr):
		offset = typeErr.Offset
	default:
		return ""
	}
	offset = min(max(offset, 0), int64(len(data)))
	return fmt.Sprintf("line %d: ", bytes.Count(data[:offset], []byte("\n"))+1)
}

// Validate checks the fixtures as New would apply them, reporting every problem with the entry it is in
// (for example `users[1] "bob@example.com": memberships[0]: organization "nope" is not declared`).
func (f *Fixtures) Validate() error {
	resolved, err := f.resolve()
	if err != nil {
		return err
	}
	// Suites are checked by their own area's seeding: apply to a scratch store to hear about them now,
	// not when a server starts.
	scratch := newStore(time.Now)
	scratch.mu.Lock()
	defer scratch.mu.Unlock()
	return scratch.applyResolved(resolved)
}

// ---- checking ----

// fixtureProblems collects the problems of a fixture, each naming its entry.
type fixtureProblems []string

func (p *fixtureProblems) add(entry, format string, args ...any) {
	*p = append(*p, entry+": "+fmt.Sprintf(format, args...))
}

func (p fixtureProblems) err() error {
	switch len(p) {
	case 0:
		return nil
	case 1:
		return errors.New("invalid fixtures: " + p[0])
	}
	return fmt.Errorf("invalid fixtures (%d problems):\n  %s", len(p), strings.Join(p, "\n  "))
}

// entryName labels entry i of list, with the value that identifies it when there is one.
func entryName(list string, i int, id string) string {
	if id == "" {
		return fmt.Sprintf("%s[%d]", list, i)
	}
	return fmt.Sprintf("%s[%d] %q", list, i, id)
}

// orgSlugPattern keeps a slug usable as one URL path segment.
var orgSlugPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_-]*$`)

// resolve checks f and returns a copy with every default filled in (org, name, plan, queue, state, token
// orgs). It does not change f.
func (f *Fixtures) resolve() (*Fixtures, error) {
	rv := &fixtureResolver{f: f, out: &Fixtures{}, declared: map[string]bool{}, usersByEmail: map[string]UserFixture{}, userIDs: map[string]bool{}}
	rv.organizations()
	rv.users()
	rv.accessTokens()
	rv.agents()
	rv.jobs()
	for i, s := range f.Suites {
		s.Org = rv.org(entryName("suites", i, s.Slug), s.Org)
		rv.out.Suites = append(rv.out.Suites, s)
	}
	rv.webhookIPs()
	if err := rv.p.err(); err != nil {
		return nil, err
	}
	return rv.out, nil
}

// fixtureResolver is resolve's work: the fixtures read, the copy being filled in, what is declared so far
// and the problems found.
type fixtureResolver struct {
	f, out       *Fixtures
	p            fixtureProblems
	declared     map[string]bool        // organization slugs
	usersByEmail map[string]UserFixture // by lower-case e-mail
	userIDs      map[string]bool        // the declared IDs, lower case
}

// organizations checks the organizations and fills in their names, plans and teams setting.
func (rv *fixtureResolver) organizations() {
	for i, o := range rv.f.Organizations {
		entry := entryName("organizations", i, o.Slug)
		switch {
		case o.Slug == "":
			rv.p.add(entry, "slug is required")
		case !orgSlugPattern.MatchString(o.Slug):
			rv.p.add(entry, "slug must be letters, digits, hyphens and underscores, starting with a letter or digit")
		case rv.declared[o.Slug]:
			rv.p.add(entry, "slug is declared twice")
		}
		rv.declared[o.Slug] = true
		if o.Name == "" && o.Slug != "" {
			o.Name = titleCase(o.Slug)
		}
		switch o.Plan {
		case "":
			o.Plan = PlanEnterprise
		case PlanEnterprise, PlanPro, PlanFree:
		default:
			rv.p.add(entry, "plan %q is not enterprise, pro or free", o.Plan)
		}
		if o.TeamsEnabled == nil {
			enabled := true
			o.TeamsEnabled = &enabled
		}
		rv.out.Organizations = append(rv.out.Organizations, o)
	}
	if len(rv.f.Organizations) == 0 {
		rv.p = append(rv.p, "organizations: declare at least one organization")
	}
}

// org resolves an entry's organization: the only one when left out.
func (rv *fixtureResolver) org(entry, slug string) string {
	switch {
	case slug == "" && len(rv.f.Organizations) == 1:
		return rv.f.Organizations[0].Slug
	case slug == "":
		rv.p.add(entry, "org is required when more than one organization is declared")
	case !rv.declared[slug]:
		rv.p.add(entry, "organization %q is not declared in organizations", slug)
	}
	return slug
}

// users checks the users and their memberships.
func (rv *fixtureResolver) users() {
	for i, u := range rv.f.Users {
		entry := entryName("users", i, u.Email)
		if u.Name == "" {
			rv.p.add(entry, "name is required")
		}
		switch key := strings.ToLower(u.Email); {
		case u.Email == "":
			rv.p.add(entry, "email is required")
		case !strings.Contains(u.Email, "@"):
			rv.p.add(entry, "email %q is not an e-mail address", u.Email)
		case hasKey(rv.usersByEmail, key):
			rv.p.add(entry, "email is declared twice")
		}
		if u.ID != "" {
			id := strings.ToLower(u.ID)
			switch {
			case uuid.Validate(id) != nil || len(id) != 36:
				rv.p.add(entry, "id %q is not a UUID", u.ID)
			case rv.userIDs[id]:
				rv.p.add(entry, "id %s is declared twice", id)
			}
			rv.userIDs[id] = true
			u.ID = id
		}
		memberships := make([]MembershipFixture, 0, len(u.Memberships))
		seen := map[string]bool{}
		for j, m := range u.Memberships {
			sub := fmt.Sprintf("%s: memberships[%d]", entry, j)
			m.Org = rv.org(sub, m.Org)
			if m.Org != "" && seen[m.Org] {
				rv.p.add(sub, "organization %q is listed twice", m.Org)
			}
			seen[m.Org] = true
			memberships = append(memberships, m)
		}
		u.Memberships = memberships
		rv.out.Users = append(rv.out.Users, u)
		if key := strings.ToLower(u.Email); key != "" && !hasKey(rv.usersByEmail, key) {
			rv.usersByEmail[key] = u
		}
	}
}

// accessTokens checks the access tokens and fills in the organizations each sees.
func (rv *fixtureResolver) accessTokens() {
	tokens := map[string]bool{}
	for i, t := range rv.f.AccessTokens {
		entry := entryName("access_tokens", i, t.Token)
		switch {
		case t.Token == "":
			rv.p.add(entry, "token is required")
		case tokens[t.Token]:
			rv.p.add(entry, "token is declared twice")
		}
		tokens[t.Token] = true
		u, userDeclared := rv.usersByEmail[strings.ToLower(t.User)]
		switch {
		case t.User == "":
			rv.p.add(entry, "user is required (the e-mail address of a declared user)")
		case !userDeclared:
			rv.p.add(entry, "user %q is not declared in users", t.User)
		}
		t.Orgs = rv.tokenOrgs(entry, t, u, userDeclared)
		rv.checkScopes(entry, t.Scopes)
		rv.out.AccessTokens = append(rv.out.AccessTokens, t)
	}
}

// tokenOrgs returns the organizations token t sees: those it lists, each one its user belongs to, or by
// default all of its user's.
func (rv *fixtureResolver) tokenOrgs(entry string, t AccessTokenFixture, u UserFixture, userDeclared bool) []string {
	var orgs []string
	for _, slug := range t.Orgs {
		if !rv.declared[slug] {
			rv.p.add(entry, "organization %q is not declared in organizations", slug)
			continue
		}
		if userDeclared && !slices.ContainsFunc(u.Memberships, func(m MembershipFixture) bool { return m.Org == slug }) {
			rv.p.add(entry, "user %q is not a member of organization %q", t.User, slug)
		}
		orgs = append(orgs, slug)
	}
	if len(t.Orgs) == 0 && userDeclared {
		for _, m := range u.Memberships {
			orgs = append(orgs, m.Org)
		}
		if len(orgs) == 0 {
			rv.p.add(entry, "the token would see no organization: list orgs, or give user %q a membership", t.User)
		}
	}
	return orgs
}

// checkScopes records a token's missing scopes and every unknown one.
func (rv *fixtureResolver) checkScopes(entry string, scopes Scopes) {
	if scopes == nil {
		rv.p.add(entry, `scopes are required (a list of scopes, or "all")`)
	}
	for _, sc := range scopes {
		if sc != allScopesName && !slices.Contains(AllScopes(), sc) {
			rv.p.add(entry, "unknown scope %q (known: all, %s)", sc, strings.Join(AllScopes(), ", "))
		}
	}
}

// agents checks the agent registration tokens and the agents, and fills in queues and states.
func (rv *fixtureResolver) agents() {
	agentTokens := map[string]bool{}
	for i, t := range rv.f.AgentTokens {
		entry := entryName("agent_tokens", i, t.Token)
		switch {
		case t.Token == "":
			rv.p.add(entry, "token is required")
		case agentTokens[t.Token]:
			rv.p.add(entry, "token is declared twice")
		}
		agentTokens[t.Token] = true
		t.Org = rv.org(entry, t.Org)
		rv.out.AgentTokens = append(rv.out.AgentTokens, t)
	}
	for i, a := range rv.f.Agents {
		entry := entryName("agents", i, a.Name)
		a.Org = rv.org(entry, a.Org)
		for _, problem := range a.problems() {
			rv.p.add(entry, "%s", problem)
		}
		a.Queue, a.State = orDefault(a.Queue, defaultQueueKey), orDefault(a.State, agentIdle)
		rv.out.Agents = append(rv.out.Agents, a)
	}
}

// jobs checks the job counts and fills in their queues.
func (rv *fixtureResolver) jobs() {
	seen := map[jobKey]bool{}
	for i, j := range rv.f.Jobs {
		entry := entryName("jobs", i, "")
		j.Org = rv.org(entry, j.Org)
		j.Queue = orDefault(j.Queue, defaultQueueKey)
		for _, problem := range j.problems() {
			rv.p.add(entry, "%s", problem)
		}
		k := jobKey{org: j.Org, cluster: j.Cluster, queue: j.Queue, state: j.State}
		if seen[k] {
			rv.p.add(entry, "the %s jobs of queue %q are declared twice", j.State, j.Queue)
		}
		seen[k] = true
		rv.out.Jobs = append(rv.out.Jobs, j)
	}
}

// webhookIPs checks the addresses GET /v2/meta answers.
func (rv *fixtureResolver) webhookIPs() {
	for i, ip := range rv.f.WebhookIPs {
		if !checkWebhookIP(ip) {
			rv.p.add(entryName("webhook_ips", i, ip), "is not an IP address or a network in CIDR notation")
		}
	}
	rv.out.WebhookIPs = slices.Clone(rv.f.WebhookIPs)
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// ---- applying ----

// applyFixtures checks f and seeds the store with it. The write lock must be held.
func (st *Store) applyFixtures(f *Fixtures) error {
	resolved, err := f.resolve()
	if err != nil {
		return err
	}
	return st.applyResolved(resolved)
}

// applyResolved seeds the store with fixtures returned by resolve. Only suites can still fail, in their
// own area's checks. The write lock must be held.
func (st *Store) applyResolved(f *Fixtures) error {
	for _, o := range f.Organizations {
		rec := st.addOrg(o.Slug, o.Name)
		rec.name = o.Name
		rec.enterprise = o.Plan == PlanEnterprise
		rec.teamsEnabled = *o.TeamsEnabled
	}
	userIDs := map[string]string{} // by lower-case e-mail
	for _, u := range f.Users {
		rec := st.userByEmail(u.Email)
		if rec == nil {
			rec = st.addUser(u.Name, u.Email)
		}
		if u.ID != "" && rec.id != u.ID {
			st.rekeyUser(rec, u.ID)
		}
		rec.name = u.Name
		userIDs[strings.ToLower(u.Email)] = rec.id
		for _, m := range u.Memberships {
			st.addMember(m.Org, rec.id, m.Admin)
		}
	}
	for _, t := range f.AccessTokens {
		st.putToken(t.Token, userIDs[strings.ToLower(t.User)], t.Description, t.Orgs, t.Scopes.resolve())
	}
	for _, t := range f.AgentTokens {
		st.metrics.agentTokens[t.Token] = &agentTokenRecord{org: t.Org, token: t.Token}
	}
	for _, a := range f.Agents {
		st.addAgent(a)
	}
	for _, j := range f.Jobs {
		st.setQueueJobs(j)
	}
	if f.WebhookIPs != nil {
		st.meta.webhookIPs = slices.Clone(f.WebhookIPs)
	}
	var p fixtureProblems
	for i, s := range f.Suites {
		if err := st.seedSuite(s.Org, s.SuiteFixture); err != nil {
			p.add(entryName("suites", i, s.Slug), "%v", err)
		}
	}
	return p.err()
}

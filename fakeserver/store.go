package fakeserver

import (
	"fmt"
	"io"
	"sort"

	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Store holds the emulator's state. It is safe for concurrent use: one mutex guards everything, and each
// request does its reading, checking and writing under a single lock, so concurrent requests never
// interleave a write. Tests use it to check what the API would report (CheckDestroy) and to change state
// behind the provider's back ("deleted outside Terraform").
type Store struct {
	mu  sync.RWMutex     `state:"-"`
	now func() time.Time `state:"-"`
	seq int64            // creation order, so lists are stable

	// statePath is the state file every change is saved to ("" for none), and logf where a failure to
	// save is reported (state.go).
	statePath string               `state:"-"`
	logf      func(string, ...any) `state:"-"`
	// stateBytes and stateRecords are the size of the last state saved, to size the next one's buffers.
	stateBytes, stateRecords int `state:"-"`
	// stateLock is the state file's lock, held while the server runs (state_lock_unix.go).
	stateLock io.Closer `state:"-"`
	// features are the organizations' feature switches, from Options (pipelines_features.go).
	features orgFeatures `state:"-"`

	orgs          map[string]*orgRecord   // by slug
	users         map[string]*userRecord  // by id
	tokens        map[string]*tokenRecord // by secret
	defaultUserID string                  // the user that seeded access tokens belong to

	// One field per area; each area file declares its state type.
	clusters   clusterState
	metrics    metricsState
	teams      teamState
	suites     suiteState
	templates  templateState
	pipelines  pipelineState
	rules      ruleState
	builds     buildState
	registries registryState

	// Pipeline schedules, cluster secrets and maintainers, and meta.
	schedules   scheduleState
	secrets     clusterSecretState
	maintainers clusterMaintainerState
	meta        metaState

	// Organization settings, the banner and cluster network ranges.
	orgSettings apiSettingsState
	banners     bannerState
	ranges      networkRangeState
	// The webhooks POST /pipelines/{slug}/webhook made on repositories.
	repoWebhooks repoWebhookState
	portals      portalState
	services     notificationServiceState
	// A build's artifacts, annotations and job logs (build_outputs.go).
	outputs buildOutputState
	// Unclustered agent tokens, made and revoked over GraphQL (agent_tokens.go).
	unclusteredTokens unclusteredTokenState

	// Organization pipeline settings and cluster cache registries.
	pipeSettings    pipelineSettingsState
	cacheRegistries cacheRegistryState
	invitations     invitationState
}

// orgRecord is an organization.
type orgRecord struct {
	id, graphqlID, slug, name string
	createdAt                 time.Time
	// enterprise is the plan: pipeline templates exist only on an enterprise plan
	// (https://buildkite.com/docs/apis/rest-api/pipeline-templates).
	enterprise bool
	// teamsEnabled makes team_ids required when creating a test suite
	// (https://buildkite.com/docs/apis/rest-api/test-engine/suites).
	teamsEnabled bool
	// members are the organization's users by user id; only they can be added to its teams.
	members map[string]*membership
	// membersRequire2FA is GraphQL's membersRequireTwoFactorAuthentication (graphql_orgs.go).
	membersRequire2FA bool
}

// membership is a user's place in an organization.
type membership struct {
	admin     bool // admins manage pipeline templates and see those that are not available
	createdAt time.Time
	ssoMode   string // "required" or "optional"; "" reads as optional
}

// userRecord is a user, shown through the user summary (created_by and the like).
type userRecord struct {
	id, graphqlID, name, email, avatarURL string
	createdAt                             time.Time
}

// tokenRecord is an API access token: whose it is, which organizations it sees and which scopes it holds.
type tokenRecord struct {
	token       string
	uuid        string // stable: derived from token (accessTokenUUID)
	description string
	createdAt   time.Time
	userID      string
	orgs        map[string]bool // org slugs
	scopes      map[string]bool
}

// newStore returns an empty store holding one user, the owner of every token seeded later.
func newStore(now func() time.Time) *Store {
	st := &Store{
		now:        now,
		orgs:       map[string]*orgRecord{},
		users:      map[string]*userRecord{},
		tokens:     map[string]*tokenRecord{},
		clusters:   newClusterState(),
		metrics:    newMetricsState(),
		teams:      newTeamState(),
		suites:     newSuiteState(),
		templates:  newTemplateState(),
		pipelines:  newPipelineState(),
		rules:      newRuleState(),
		builds:     newBuildState(),
		registries: newRegistryState(),

		schedules:   newScheduleState(),
		secrets:     newClusterSecretState(),
		maintainers: newClusterMaintainerState(),
		meta:        newMetaState(),

		orgSettings: newAPISettingsState(),
		banners:     newBannerState(),
		ranges:      newNetworkRangeState(),

		repoWebhooks: newRepoWebhookState(),
		portals:      newPortalState(),
		services:     newNotificationServiceState(),
		outputs:      newBuildOutputState(),

		unclusteredTokens: newUnclusteredTokenState(),

		pipeSettings:    newPipelineSettingsState(),
		cacheRegistries: newCacheRegistryState(),
		invitations:     newInvitationState(),
	}
	st.defaultUserID = st.addUser("Test User", "test-user@example.com").id
	return st
}

// view runs fn holding the read lock and returns its error.
func (st *Store) view(fn func() *apiError) *apiError {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return fn()
}

// update runs fn holding the write lock and returns its error. When fn succeeds and the store has a state
// file, the state is saved before the lock is released, so a change is on disk before its request is
// answered; a failure to save is a 500 saying so.
func (st *Store) update(fn func() *apiError) *apiError {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := fn(); err != nil {
		return err
	}
	if err := st.save(); err != nil {
		return errStateNotSaved(st.statePath, err)
	}
	return nil
}

// edit locks the store for a change made through its Go methods (tests, fixtures) and returns the
// function that ends it, saving the state as update does: use it as `defer st.edit()()`.
func (st *Store) edit() func() {
	st.mu.Lock()
	return func() {
		defer st.mu.Unlock()
		st.saveOrLog()
	}
}

// nextSeq returns the next creation sequence number. The write lock must be held.
func (st *Store) nextSeq() int64 {
	st.seq++
	return st.seq
}

// newID returns a fresh UUID for a resource.
func newID() string { return uuid.NewString() }

// timestamp returns the store clock's time, truncated to the milliseconds the API shows.
func (st *Store) timestamp() time.Time { return st.now().UTC().Truncate(time.Millisecond) }

// addOrg creates the organization slug unless it exists, on an enterprise plan with teams enabled (what
// the emulator serves by default), and returns it. The write lock must be held.
func (st *Store) addOrg(slug, name string) *orgRecord {
	if o, ok := st.orgs[slug]; ok {
		return o
	}
	id := newID()
	o := &orgRecord{
		id: id, graphqlID: graphQLID("Organization", id), slug: slug, name: name, createdAt: st.timestamp(),
		enterprise: true, teamsEnabled: true, members: map[string]*membership{},
	}
	st.orgs[slug] = o
	return o
}

// addMember makes a user a member of an organization (an admin when admin is true). The write lock must be held.
func (st *Store) addMember(org, userID string, admin bool) {
	o, ok := st.orgs[org]
	if !ok {
		return
	}
	if m, ok := o.members[userID]; ok {
		m.admin = admin
		return
	}
	o.members[userID] = &membership{admin: admin, createdAt: st.timestamp()}
}

// isMember reports whether the user belongs to the organization. A lock must be held.
func (st *Store) isMember(org, userID string) bool {
	o, ok := st.orgs[org]
	return ok && o.members[userID] != nil
}

// isAdmin reports whether the user is an administrator of the organization. A lock must be held.
func (st *Store) isAdmin(org, userID string) bool {
	o, ok := st.orgs[org]
	return ok && o.members[userID] != nil && o.members[userID].admin
}

// addUser creates a user. The write lock must be held.
func (st *Store) addUser(name, email string) *userRecord {
	id := newID()
	u := &userRecord{
		id: id, graphqlID: graphQLID("User", id), name: name, email: email,
		avatarURL: "https://www.gravatar.com/avatar/" + strings.ReplaceAll(id, "-", ""),
		createdAt: st.timestamp(),
	}
	st.users[id] = u
	return u
}

// rekeyUser gives user u the ID id (and the GraphQL ID derived from it), before anything refers to it
// but the default user's ID, which follows. Only fixtures call it, on a new store.
func (st *Store) rekeyUser(u *userRecord, id string) {
	delete(st.users, u.id)
	if st.defaultUserID == u.id {
		st.defaultUserID = id
	}
	u.id, u.graphqlID = id, graphQLID("User", id)
	u.avatarURL = "https://www.gravatar.com/avatar/" + strings.ReplaceAll(id, "-", "")
	st.users[id] = u
}

// AddToken seeds an access token belonging to the default user, seeing orgs and holding scopes (see
// AllScopes). Organizations that do not exist yet are created, named after their slug. Adding a token
// that exists replaces it. Its uuid (GET /v2/access-token) is derived from token, the same in every run.
func (st *Store) AddToken(token string, orgs []string, scopes []string) {
	defer st.edit()()
	for _, slug := range orgs {
		st.addOrg(slug, titleCase(slug))
		if !st.isMember(slug, st.defaultUserID) {
			st.addMember(slug, st.defaultUserID, true)
		}
	}
	st.putToken(token, st.defaultUserID, "", orgs, scopes)
}

// titleCase turns an org slug into a display name: "my-org" becomes "My Org".
func titleCase(slug string) string {
	words := strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// Kind names a type of resource for Store.Exists and Store.Remove. Each area file declares its kinds
// (KindCluster in clusters.go, KindQueue in cluster_queues.go, ...) and registers them with registerKind.
//
// The key names the resource the way an import ID would. Top-level kinds take their ID (registries and
// agent tokens also their slug or secret, as their docs say). Nested kinds take "<parent>/<child>" and the
// parent must match, so a queue asked for under another cluster does not exist:
//
//   - KindQueue, KindClusterToken: "<cluster id>/<queue or token id>"
//   - KindRegistryToken: "<registry slug or id>/<token id>"
//   - KindTeamMember, KindTeamPipeline, KindTeamSuite: "<team id>/<user, pipeline or suite id>"
//
// A nested key without both parts names nothing: Exists reports false and Remove does nothing.
type Kind string

// kindOps answers Exists and Remove for one Kind. exists runs with the read lock held, remove with the
// write lock held; remove deletes the way the API's DELETE would (cascades included).
type kindOps struct {
	exists func(st *Store, org, key string) bool
	remove func(st *Store, org, key string) bool
}

// kinds is filled by the area files' init functions and only read afterwards.
var kinds = map[Kind]kindOps{}

// registerKind makes a Kind known to Store.Exists and Store.Remove: find returns the record key names in
// org (nil when none; a lock is held) and del deletes it as the API would (the write lock is held). Call
// it from an init function.
func registerKind[T any](k Kind, find func(st *Store, org, key string) *T, del func(st *Store, rec *T)) {
	if _, dup := kinds[k]; dup {
		panic("fakeserver: kind registered twice: " + string(k))
	}
	kinds[k] = kindOps{
		exists: func(st *Store, org, key string) bool { return find(st, org, key) != nil },
		remove: func(st *Store, org, key string) bool {
			rec := find(st, org, key)
			if rec != nil {
				del(st, rec)
			}
			return rec != nil
		},
	}
}

// nestedKey adapts the lookup of a nested record to a Kind's key "<parent>/<child>"; a key without both
// parts finds nothing.
func nestedKey[T any](find func(st *Store, org, parent, child string) *T) func(st *Store, org, key string) *T {
	return func(st *Store, org, key string) *T {
		parent, child, ok := strings.Cut(key, "/")
		if !ok || parent == "" || child == "" {
			return nil
		}
		return find(st, org, parent, child)
	}
}

// kindOpsFor returns the operations of k, panicking for an unknown Kind: a typo must fail a test, not make
// CheckDestroy pass because nothing "exists".
func kindOpsFor(k Kind) kindOps {
	ops, ok := kinds[k]
	if !ok {
		known := make([]string, 0, len(kinds))
		for name := range kinds {
			known = append(known, string(name))
		}
		sort.Strings(known)
		panic(fmt.Sprintf("fakeserver: unknown kind %q (known: %s)", k, strings.Join(known, ", ")))
	}
	return ops
}

// Exists reports whether the resource of kind named by key (see Kind) exists in organization org.
func (st *Store) Exists(kind Kind, org, key string) bool {
	ops := kindOpsFor(kind)
	st.mu.RLock()
	defer st.mu.RUnlock()
	return ops.exists(st, org, key)
}

// Remove deletes the resource of kind named by key (see Kind) from organization org as the API's DELETE
// would (a cluster takes its queues and tokens with it) and reports whether it existed.
func (st *Store) Remove(kind Kind, org, key string) bool {
	ops := kindOpsFor(kind)
	defer st.edit()()
	return ops.remove(st, org, key)
}

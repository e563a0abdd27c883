package fakeserver

import (
	"net/http"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Cluster secrets (https://buildkite.com/docs/apis/rest-api/clusters/secrets): values agents of a cluster read, under
// /clusters/{id}/secrets. The value is written on create and through PUT .../value, kept in the store, and
// never answered: no response, error or log line of the emulator holds it. Scopes are the clusters'
// (read_clusters, write_clusters).
//
// Validation follows the official provider's rules, which it says are the service's: the key starts with a
// letter, holds only letters, digits and underscores, has at most 255 characters, does not start with
// "buildkite" or "bk" in any case, and is unique in its cluster; the value is required and at most 8 KiB
// (8,192 bytes). Where the facts are silent: the policy, when given, must be YAML (at most
// maxConfigurationBytes); PUT changes only description and policy (null or "" clears them); updated_at
// and updated_by follow either update; deleting a cluster deletes its secrets.

// KindClusterSecret is a cluster secret, for Store.Exists and Store.Remove, keyed "<cluster id>/<secret id>".
const KindClusterSecret Kind = "cluster_secret"

func init() {
	registerKind(KindClusterSecret, nestedKey((*Store).clusterSecret), (*Store).deleteClusterSecret)
}

// The limits of keys and values.
const (
	secretKeyMaxLen     = 255
	secretValueMaxBytes = 8 << 10
)

var secretKeyPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// ---- state ----

// clusterSecretState is this area's part of the Store: secrets listed by cluster and named by key in it.
type clusterSecretState struct {
	secrets *table[*clusterSecretRecord]
}

func newClusterSecretState() clusterSecretState {
	return clusterSecretState{secrets: newTable(
		func(s *clusterSecretRecord) []string { return []string{s.clusterID} },
		func(s *clusterSecretRecord) []string { return []string{nameKey(s.clusterID, "key", s.key)} })}
}

func (s *clusterSecretRecord) recordID() string { return s.id }
func (s *clusterSecretRecord) recordSeq() int64 { return s.seq }

type clusterSecretRecord struct {
	seq                           int64
	org, clusterID, id, graphqlID string
	key, description, policy      string
	value                         string // never rendered
	createdAt, updatedAt          time.Time
	createdBy, updatedBy          string // user ids; updatedBy "" until the first update
}

// clusterSecret returns the secret of org's cluster with id, or nil. A lock must be held.
func (st *Store) clusterSecret(org, clusterID, id string) *clusterSecretRecord {
	if s, ok := st.secrets.secrets.get(id); ok && s.org == org && s.clusterID == clusterID {
		return s
	}
	return nil
}

// deleteClusterSecret removes s. The write lock must be held.
func (st *Store) deleteClusterSecret(s *clusterSecretRecord) { st.secrets.secrets.remove(s) }

// ClusterSecretValue returns the value of a cluster secret, which the API never answers, so that tests
// can see what was written; ok is false when there is no such secret.
func (st *Store) ClusterSecretValue(org, clusterID, id string) (value string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if s := st.clusterSecret(org, clusterID, id); s != nil {
		return s.value, true
	}
	return "", false
}

// ---- views ----

type secretOrganizationView struct {
	ID     string `json:"id"`
	Slug   string `json:"slug"`
	URL    string `json:"url"`
	WebURL string `json:"web_url"`
}

type clusterSecretView struct {
	ID           string                 `json:"id"`
	GraphQLID    string                 `json:"graphql_id"`
	Key          string                 `json:"key"`
	Description  *string                `json:"description"`
	Policy       *string                `json:"policy"`
	URL          string                 `json:"url"`
	ClusterURL   string                 `json:"cluster_url"`
	CreatedAt    string                 `json:"created_at"`
	CreatedBy    *userView              `json:"created_by"`
	UpdatedAt    string                 `json:"updated_at"`
	UpdatedBy    *userView              `json:"updated_by"`
	LastReadAt   *string                `json:"last_read_at"`
	Organization secretOrganizationView `json:"organization"`
}

// clusterSecretView renders s, without its value. A lock must be held.
func (st *Store) clusterSecretView(base string, s *clusterSecretRecord) clusterSecretView {
	v := clusterSecretView{
		ID: s.id, GraphQLID: s.graphqlID, Key: s.key,
		URL:        apiURL(base, "organizations", s.org, "clusters", s.clusterID, "secrets", s.id),
		ClusterURL: apiURL(base, "organizations", s.org, "clusters", s.clusterID),
		CreatedAt:  formatTime(s.createdAt), CreatedBy: st.userSummary(s.createdBy),
		UpdatedAt: formatTime(s.updatedAt), UpdatedBy: st.userSummary(s.updatedBy),
	}
	if s.description != "" {
		v.Description = stringPtr(s.description)
	}
	if s.policy != "" {
		v.Policy = stringPtr(s.policy)
	}
	if o, ok := st.orgs[s.org]; ok {
		v.Organization = secretOrganizationView{ID: o.id, Slug: o.slug,
			URL: apiURL(base, "organizations", o.slug), WebURL: webURL(base, o.slug)}
	}
	return v
}

// ---- routes and handlers ----

func (s *Server) routeClusterSecrets(mux *routeMux) {
	const secrets = "/v2/organizations/{org}/clusters/{cluster}/secrets"
	const secret = secrets + "/{secret}"
	mux.HandleFunc("GET "+secrets, s.listClusterSecrets)
	mux.HandleFunc("POST "+secrets, s.createClusterSecret)
	mux.HandleFunc("GET "+secret, s.getClusterSecret)
	mux.HandleFunc("PUT "+secret, s.updateClusterSecret)
	mux.HandleFunc("PATCH "+secret, s.updateClusterSecret)
	mux.HandleFunc("PUT "+secret+"/value", s.updateClusterSecretValue)
	mux.HandleFunc("DELETE "+secret, s.deleteClusterSecretHandler)
}

// findClusterSecret finds the secret of the path's cluster and secret IDs: 404 for either. A lock must
// be held.
func (st *Store) findClusterSecret(org string, r *http.Request) (*clusterSecretRecord, *apiError) {
	c := st.cluster(org, r.PathValue("cluster"))
	if c == nil {
		return nil, errNotFound("cluster")
	}
	if sec := st.clusterSecret(org, c.id, r.PathValue("secret")); sec != nil {
		return sec, nil
	}
	return nil, errNotFound("cluster secret")
}

func (s *Server) listClusterSecrets(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		out := []clusterSecretView{}
		for _, sec := range paginate(w, r, s.store.secrets.secrets.list(c.id)) {
			out = append(out, s.store.clusterSecretView(baseURL(r), sec))
		}
		return out, nil
	})
}

func (s *Server) getClusterSecret(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		sec, err := s.store.findClusterSecret(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.clusterSecretView(baseURL(r), sec), nil
	})
}

// checkSecretKey records what is wrong with a secret's key.
func checkSecretKey(problems *validationErrors, key opt[string]) {
	lower := strings.ToLower(key.Value)
	switch {
	case key.Value == "":
		problems.addBlank("key")
	case len(key.Value) > secretKeyMaxLen:
		problems.add("key", tooLong(secretKeyMaxLen, "characters"))
	case !secretKeyPattern.MatchString(key.Value):
		problems.add("key", "must start with a letter and contain only letters, digits and underscores")
	case strings.HasPrefix(lower, "buildkite") || strings.HasPrefix(lower, "bk"):
		problems.add("key", "must not start with buildkite or bk, which are reserved")
	}
}

// checkSecretValue records what is wrong with a secret's value, never quoting it.
func checkSecretValue(problems *validationErrors, value opt[string]) {
	switch {
	case value.Value == "":
		problems.addBlank("value")
	case len(value.Value) > secretValueMaxBytes:
		problems.add("value", tooLong(secretValueMaxBytes, "bytes"))
	}
}

// checkSecretPolicy records a policy that is not YAML or too long; empty is no policy.
func checkSecretPolicy(problems *validationErrors, policy opt[string]) {
	if policy.Value == "" {
		return
	}
	configurationTooLong(problems, "policy", len(policy.Value))
	var doc any
	if err := yaml.Unmarshal([]byte(policy.Value), &doc); err != nil {
		problems.addOnce("policy", "is not valid YAML")
	}
}

func (s *Server) createClusterSecret(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		key, value, desc, policy := in.String("key"), in.String("value"), in.String("description"), in.String("policy")
		problems := in.Problems()
		checkSecretKey(&problems, key)
		checkSecretValue(&problems, value)
		checkSecretPolicy(&problems, policy)
		if _, taken := s.store.secrets.secrets.lookup(nameKey(c.id, "key", key.Value)); taken && key.Value != "" {
			problems.add("key", "has already been taken")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		id, now := newID(), s.store.timestamp()
		sec := &clusterSecretRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterSecret", id),
			key: key.Value, description: desc.Value, policy: policy.Value, value: value.Value,
			createdAt: now, updatedAt: now, createdBy: user.id,
		}
		s.store.secrets.secrets.insert(sec)
		return s.store.clusterSecretView(baseURL(r), sec), nil
	})
}

// updateClusterSecret changes the description and policy; the key cannot change and the value only
// through PUT .../value, so both are ignored here like any unknown property.
func (s *Server) updateClusterSecret(w http.ResponseWriter, r *http.Request) {
	s.changeClusterSecret(w, r, func(in *jsonObject, problems *validationErrors) func(*clusterSecretRecord) {
		desc, policy := in.String("description"), in.String("policy")
		checkSecretPolicy(problems, policy)
		return func(sec *clusterSecretRecord) {
			setString(&sec.description, desc)
			setString(&sec.policy, policy)
		}
	})
}

// updateClusterSecretValue replaces the value and answers the secret, without it.
func (s *Server) updateClusterSecretValue(w http.ResponseWriter, r *http.Request) {
	s.changeClusterSecret(w, r, func(in *jsonObject, problems *validationErrors) func(*clusterSecretRecord) {
		value := in.String("value")
		checkSecretValue(problems, value)
		return func(sec *clusterSecretRecord) { sec.value = value.Value }
	})
}

// changeClusterSecret answers an update of the path's secret: read takes what it changes from the body,
// adding to problems what is wrong with it, and returns the change, made only when nothing is. The
// secret's updated_at and updated_by follow.
func (s *Server) changeClusterSecret(w http.ResponseWriter, r *http.Request,
	read func(in *jsonObject, problems *validationErrors) func(*clusterSecretRecord)) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		sec, err := s.store.findClusterSecret(org.slug, r)
		if err != nil {
			return nil, err
		}
		var checks validationErrors
		change := read(in, &checks)
		if problems := append(in.Problems(), checks...); len(problems) > 0 {
			return nil, errValidation(problems)
		}
		change(sec)
		sec.updatedAt, sec.updatedBy = s.store.timestamp(), user.id
		return s.store.clusterSecretView(baseURL(r), sec), nil
	})
}

func (s *Server) deleteClusterSecretHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		sec, err := s.store.findClusterSecret(org, r)
		if err == nil {
			s.store.deleteClusterSecret(sec)
		}
		return err
	})
}

package fakeserver

import (
	"net/http"
	"time"
)

// Cluster maintainers (https://buildkite.com/docs/apis/rest-api/clusters/maintainers): users and teams given
// permission to manage one cluster, under /clusters/{id}/maintainers. An assignment has an ID of its own and
// cannot be changed, only created and deleted. Scopes are the clusters' (read_clusters, write_clusters).
//
// Choices where the facts are silent: a create names exactly one of user (a member of the organization)
// or team (one of its teams) by UUID, else 422; an actor is a maintainer of a cluster at most once (422
// "User is already a maintainer of this cluster"); the actor is shown as it is now (a renamed team shows
// its new name), a user with email and no slug, a team with slug and no email; deleting a cluster or a
// team deletes its assignments.

// KindClusterMaintainer is a maintainer assignment, for Store.Exists and Store.Remove, keyed "<cluster
// id>/<maintainer id>".
const KindClusterMaintainer Kind = "cluster_maintainer"

// The kinds of actor a maintainer is.
const (
	actorUser = "user"
	actorTeam = "team"
)

func init() {
	registerKind(KindClusterMaintainer, nestedKey((*Store).clusterMaintainer), (*Store).deleteClusterMaintainer)
}

// ---- state ----

// clusterMaintainerState is this area's part of the Store: assignments listed by cluster and by actor
// ("actor:<id>", so a deleted team takes its assignments along), named by cluster and actor.
type clusterMaintainerState struct {
	maintainers *table[*clusterMaintainerRecord]
}

func newClusterMaintainerState() clusterMaintainerState {
	return clusterMaintainerState{maintainers: newTable(
		func(m *clusterMaintainerRecord) []string { return []string{m.clusterID, "actor:" + m.actorID} },
		func(m *clusterMaintainerRecord) []string { return []string{maintainerName(m.clusterID, m.actorID)} })}
}

func maintainerName(clusterID, actorID string) string { return nameKey(clusterID, "actor", actorID) }

func (m *clusterMaintainerRecord) recordID() string { return m.id }
func (m *clusterMaintainerRecord) recordSeq() int64 { return m.seq }

type clusterMaintainerRecord struct {
	seq                int64
	org, clusterID, id string
	actorType, actorID string // actorUser or actorTeam, and the user's or team's UUID
	createdAt          time.Time
}

// clusterMaintainer returns the assignment of org's cluster with id, or nil. A lock must be held.
func (st *Store) clusterMaintainer(org, clusterID, id string) *clusterMaintainerRecord {
	if m, ok := st.maintainers.maintainers.get(id); ok && m.org == org && m.clusterID == clusterID {
		return m
	}
	return nil
}

// deleteClusterMaintainer removes m. The write lock must be held.
func (st *Store) deleteClusterMaintainer(m *clusterMaintainerRecord) {
	st.maintainers.maintainers.remove(m)
}

// ---- views ----

type maintainerActorView struct {
	ID        string  `json:"id"`
	GraphQLID string  `json:"graphql_id"`
	Name      string  `json:"name"`
	Email     *string `json:"email,omitempty"`
	Type      string  `json:"type"`
	Slug      *string `json:"slug,omitempty"`
}

type clusterMaintainerView struct {
	ID    string              `json:"id"`
	Actor maintainerActorView `json:"actor"`
}

// clusterMaintainerView renders m with its actor as it is now. A lock must be held.
func (st *Store) clusterMaintainerView(m *clusterMaintainerRecord) clusterMaintainerView {
	a := maintainerActorView{ID: m.actorID, Type: m.actorType}
	switch m.actorType {
	case actorUser:
		if u, ok := st.users[m.actorID]; ok {
			a.GraphQLID, a.Name, a.Email = u.graphqlID, u.name, stringPtr(u.email)
		}
	case actorTeam:
		if t := st.teamByID(m.org, m.actorID); t != nil {
			a.GraphQLID, a.Name, a.Slug = t.graphqlID, t.name, stringPtr(t.slug)
		}
	}
	return clusterMaintainerView{ID: m.id, Actor: a}
}

// ---- routes and handlers ----

func (s *Server) routeClusterMaintainers(mux *routeMux) {
	const maintainers = "/v2/organizations/{org}/clusters/{cluster}/maintainers"
	const maintainer = maintainers + "/{maintainer}"
	mux.HandleFunc("GET "+maintainers, s.listClusterMaintainers)
	mux.HandleFunc("POST "+maintainers, s.createClusterMaintainer)
	mux.HandleFunc("GET "+maintainer, s.getClusterMaintainer)
	mux.HandleFunc("DELETE "+maintainer, s.deleteClusterMaintainerHandler)
}

// findClusterMaintainer finds the assignment of the path's cluster and ID: 404 for either. A lock must be
// held.
func (st *Store) findClusterMaintainer(org string, r *http.Request) (*clusterMaintainerRecord, *apiError) {
	c := st.cluster(org, r.PathValue("cluster"))
	if c == nil {
		return nil, errNotFound("cluster")
	}
	if m := st.clusterMaintainer(org, c.id, r.PathValue("maintainer")); m != nil {
		return m, nil
	}
	return nil, errNotFound("cluster maintainer")
}

func (s *Server) listClusterMaintainers(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		out := []clusterMaintainerView{}
		for _, m := range paginate(w, r, s.store.maintainers.maintainers.list(c.id)) {
			out = append(out, s.store.clusterMaintainerView(m))
		}
		return out, nil
	})
}

func (s *Server) getClusterMaintainer(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		m, err := s.store.findClusterMaintainer(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.clusterMaintainerView(m), nil
	})
}

// createClusterMaintainer takes {"user": "<uuid>"} or {"team": "<uuid>"}.
func (s *Server) createClusterMaintainer(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		actorType, actorID, problems := s.store.maintainerActor(org.slug, c.id, in)
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		m := &clusterMaintainerRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: newID(),
			actorType: actorType, actorID: actorID, createdAt: s.store.timestamp(),
		}
		s.store.maintainers.maintainers.insert(m)
		return s.store.clusterMaintainerView(m), nil
	})
}

// maintainerActor reads the actor of a create body and what is wrong with it: exactly one of user (a
// member of org) or team (a team of org), not yet a maintainer of the cluster. A lock must be held.
func (st *Store) maintainerActor(org, clusterID string, in *jsonObject) (actorType, actorID string, problems validationErrors) {
	user, team := in.String("user"), in.String("team")
	problems = in.Problems()
	actorType, actorID = actorUser, user.Value
	if team.Value != "" {
		actorType, actorID = actorTeam, team.Value
	}
	switch _, taken := st.maintainers.maintainers.lookup(maintainerName(clusterID, actorID)); {
	case len(problems) > 0:
	case (user.Value == "") == (team.Value == ""):
		problems.add("user", "or team must be given, but not both")
	case actorType == actorUser && !st.isMember(org, actorID):
		problems.add("user", "is not a member of this organization")
	case actorType == actorTeam && st.teamByID(org, actorID) == nil:
		problems.add("team", "is not a team of this organization")
	case taken:
		problems.add(actorType, "is already a maintainer of this cluster")
	}
	return actorType, actorID, problems
}

func (s *Server) deleteClusterMaintainerHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		m, err := s.store.findClusterMaintainer(org, r)
		if err == nil {
			s.store.deleteClusterMaintainer(m)
		}
		return err
	})
}

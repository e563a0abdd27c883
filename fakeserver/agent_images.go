package fakeserver

import (
	"crypto/rand"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Agent images (https://buildkite.com/docs/apis/rest-api/clusters/agent-images): custom images for Linux hosted
// agents, under /clusters/{id}/agent-images, with read_clusters and write_clusters. An image is created
// from a name and a Dockerfile body without FROM; Buildkite prepends its base image and builds it. There
// is no update: an image is listed, read and deleted.
//
// The emulator builds without building: an image is BUILDING for Options.AgentImageBuildTime after its
// create (DefaultAgentImageBuildTime when unset), measured on the server's clock, and then READY with an
// image_ref, or FAILED with last_build_error when its Dockerfile has a step that fails. A step fails when
// it is `RUN false` or `RUN exit <n>` with n other than 0 (any case, extra spaces allowed), which is how a
// test asks for a failed build; the error is worded as BuildKit words it.
//
// An organization without hosted agents (Options.NoHostedAgents) answers 404 to every route. A cluster
// that is not hosted (it has no hosted queue, and never held an image) lists no images, answers 404 to a
// get or delete and 422 to a create.
//
// Choices where the facts are silent (to check against the service): the ID is 13 lower-case letters and
// digits, as the docs' example; version is 1 (there is no rebuild); image_ref is null until READY (also
// when FAILED) and then packages.buildkite.com/<org>/agent-images/<id>:<version>; base_image is the FROM
// line; the name is unique within its cluster; a Dockerfile with a FROM instruction, at the start of any
// line, is refused; an image a queue of its cluster runs on (hosted_agents.linux.agent_image_ref equal to
// its image_ref) cannot be deleted (422 naming the queues), as the official provider's docs say; deleting
// a cluster deletes its images.

// KindAgentImage is a hosted agent image, for Store.Exists and Store.Remove, keyed "<cluster id>/<image id>".
const KindAgentImage Kind = "agent_image"

func init() {
	registerKind(KindAgentImage, nestedKey((*Store).agentImage), (*Store).deleteAgentImage)
}

// DefaultAgentImageBuildTime is how long an image builds when Options.AgentImageBuildTime is 0.
const DefaultAgentImageBuildTime = time.Second

// agentImageBaseImage is the FROM line Buildkite prepends to a Dockerfile body.
const agentImageBaseImage = "FROM buildkite/hosted-agent-base:latest"

// Agent image statuses.
const (
	agentImageBuilding = "BUILDING"
	agentImageReady    = "READY"
	agentImageFailed   = "FAILED"
)

var (
	// dockerfileFrom finds a FROM instruction at the start of a line.
	dockerfileFrom = regexp.MustCompile(`(?im)^\s*FROM\s`)
	// dockerfileFailingStep finds the step the emulator fails: RUN false, or RUN exit <n>.
	dockerfileFailingStep = regexp.MustCompile(`(?im)^\s*RUN\s+(false|exit\s+(\d+))\s*$`)
)

// ---- state ----

// agentImageState is this area's part of the Store: images listed by cluster and named by name in it.
type agentImageState struct {
	images *table[*agentImageRecord]
	// hostedClusters are the clusters whose hosted agents environment exists (they had a hosted queue
	// when an image was made), by cluster id.
	hostedClusters map[string]bool
}

func newAgentImageState() agentImageState {
	return agentImageState{
		images: newTable(
			func(i *agentImageRecord) []string { return []string{i.clusterID} },
			func(i *agentImageRecord) []string { return []string{nameKey(i.clusterID, "name", i.name)} }),
		hostedClusters: map[string]bool{},
	}
}

type agentImageRecord struct {
	seq                      int64
	org, clusterID, id, name string
	dockerfile               string
	version                  int
	createdAt                time.Time
	// readyAt is when the build ends; buildError, when set, is why it fails then.
	readyAt    time.Time
	buildError string
}

func (i *agentImageRecord) recordID() string { return i.id }
func (i *agentImageRecord) recordSeq() int64 { return i.seq }

// status is the image's build status at now.
func (i *agentImageRecord) status(now time.Time) string {
	switch {
	case now.Before(i.readyAt):
		return agentImageBuilding
	case i.buildError != "":
		return agentImageFailed
	}
	return agentImageReady
}

// imageRef is what a hosted queue names the built image by.
func (i *agentImageRecord) imageRef() string {
	return "packages.buildkite.com/" + i.org + "/agent-images/" + i.id + ":" + strconv.Itoa(i.version)
}

// agentImage returns the image of org's cluster with id, or nil. A lock must be held.
func (st *Store) agentImage(org, clusterID, id string) *agentImageRecord {
	if i, ok := st.agentImages.images.get(id); ok && i.org == org && i.clusterID == clusterID {
		return i
	}
	return nil
}

// deleteAgentImage removes i. The write lock must be held.
func (st *Store) deleteAgentImage(i *agentImageRecord) { st.agentImages.images.remove(i) }

// deleteAgentImagesOf removes a cluster's images and its hosted environment. The write lock must be held.
func (st *Store) deleteAgentImagesOf(clusterID string) {
	removeAll(st.agentImages.images, clusterID)
	delete(st.agentImages.hostedClusters, clusterID)
}

// clusterIsHosted reports whether the cluster has its hosted agents environment: it has a hosted queue, or
// had one when an image was made. A lock must be held.
func (st *Store) clusterIsHosted(clusterID string) bool {
	if st.agentImages.hostedClusters[clusterID] {
		return true
	}
	return slices.ContainsFunc(st.queuesOf(clusterID), func(q *queueRecord) bool { return q.hosted != nil })
}

// AgentImageStatus returns an image's build status as the API would answer it now, for tests; ok is false
// when there is no such image.
func (st *Store) AgentImageStatus(org, clusterID, id string) (status string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if i := st.agentImage(org, clusterID, id); i != nil {
		return i.status(st.now()), true
	}
	return "", false
}

// newAgentImageID returns an ID shaped as the docs' example: 13 lower-case letters and digits.
func newAgentImageID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	for range 13 {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			panic("fakeserver: no randomness: " + err.Error())
		}
		b.WriteByte(alphabet[n.Int64()])
	}
	return b.String()
}

// buildErrorOf is the error a build of dockerfile ends with, "" when it succeeds.
func buildErrorOf(dockerfile string) string {
	for _, m := range dockerfileFailingStep.FindAllStringSubmatch(dockerfile, -1) {
		code := "1"
		if m[2] != "" {
			code = strings.TrimLeft(m[2], "0")
			if code == "" {
				continue // exit 0 succeeds
			}
		}
		return `process "/bin/sh -c ` + m[1] + `" did not complete successfully: exit code: ` + code
	}
	return ""
}

// ---- views ----

type agentImageView struct {
	ID                 string  `json:"id"`
	Name               string  `json:"name"`
	Status             string  `json:"status"`
	ImageRef           *string `json:"image_ref"`
	Version            int     `json:"version"`
	LastBuildError     *string `json:"last_build_error"`
	Dockerfile         string  `json:"dockerfile"`
	BaseImage          string  `json:"base_image"`
	ComposedDockerfile string  `json:"composed_dockerfile"`
	URL                string  `json:"url"`
	WebURL             string  `json:"web_url"`
	ClusterURL         string  `json:"cluster_url"`
	CreatedAt          string  `json:"created_at"`
}

// agentImageView renders i as it stands now. A lock must be held.
func (st *Store) agentImageView(base string, i *agentImageRecord) agentImageView {
	v := agentImageView{
		ID: i.id, Name: i.name, Status: i.status(st.now()), Version: i.version,
		Dockerfile: i.dockerfile, BaseImage: agentImageBaseImage,
		ComposedDockerfile: agentImageBaseImage + "\n" + i.dockerfile,
		URL:                apiURL(base, "organizations", i.org, "clusters", i.clusterID, "agent-images", i.id),
		WebURL:             webURL(base, "organizations", i.org, "clusters", i.clusterID, "agent-images", i.id),
		ClusterURL:         apiURL(base, "organizations", i.org, "clusters", i.clusterID),
		CreatedAt:          formatTime(i.createdAt),
	}
	switch v.Status {
	case agentImageReady:
		v.ImageRef = stringPtr(i.imageRef())
	case agentImageFailed:
		v.LastBuildError = stringPtr(i.buildError)
	}
	return v
}

// ---- routes and handlers ----

func (s *Server) routeAgentImages(mux *routeMux) {
	const images = "/v2/organizations/{org}/clusters/{cluster}/agent-images"
	const image = images + "/{image}"
	mux.HandleFunc("GET "+images, s.listAgentImages)
	mux.HandleFunc("POST "+images, s.createAgentImage)
	mux.HandleFunc("GET "+image, s.getAgentImage)
	mux.HandleFunc("DELETE "+image, s.deleteAgentImageHandler)
}

// imagesCluster finds the path's cluster: 404 for none, and for every cluster when the emulator's
// organizations have no hosted agents. A lock must be held.
func (st *Store) imagesCluster(org string, r *http.Request) (*clusterRecord, *apiError) {
	if st.features.hostedAgentsOff {
		return nil, errRouteNotFound()
	}
	if c := st.cluster(org, r.PathValue("cluster")); c != nil {
		return c, nil
	}
	return nil, errNotFound("cluster")
}

// findAgentImage finds the image of the path's cluster and image IDs: 404 for either (a cluster that is
// not hosted has no images). A lock must be held.
func (st *Store) findAgentImage(org string, r *http.Request) (*agentImageRecord, *apiError) {
	c, err := st.imagesCluster(org, r)
	if err != nil {
		return nil, err
	}
	if i := st.agentImage(org, c.id, r.PathValue("image")); i != nil {
		return i, nil
	}
	return nil, errNotFound("agent image")
}

func (s *Server) listAgentImages(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c, err := s.store.imagesCluster(org, r)
		if err != nil {
			return nil, err
		}
		out := []agentImageView{}
		for _, i := range paginate(w, r, s.store.agentImages.images.list(c.id)) {
			out = append(out, s.store.agentImageView(baseURL(r), i))
		}
		return out, nil
	})
}

func (s *Server) getAgentImage(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		i, err := s.store.findAgentImage(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.agentImageView(baseURL(r), i), nil
	})
}

func (s *Server) createAgentImage(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		c, err := s.store.imagesCluster(org.slug, r)
		if err != nil {
			return nil, err
		}
		name, dockerfile := in.String("name"), in.String("dockerfile")
		problems := in.Problems()
		if !s.store.clusterIsHosted(c.id) {
			problems.add("cluster", "does not have hosted agents: create a hosted queue in it first")
		}
		switch {
		case strings.TrimSpace(name.Value) == "":
			problems.addBlank("name")
		default:
			if _, taken := s.store.agentImages.images.lookup(nameKey(c.id, "name", name.Value)); taken {
				problems.add("name", "has already been taken")
			}
		}
		switch {
		case strings.TrimSpace(dockerfile.Value) == "":
			problems.addBlank("dockerfile")
		case dockerfileFrom.MatchString(dockerfile.Value):
			problems.add("dockerfile", "must not contain a FROM instruction: Buildkite provides the base image")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		now := s.store.timestamp()
		build := s.store.features.agentImageBuildTime
		if build == 0 {
			build = DefaultAgentImageBuildTime
		}
		i := &agentImageRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: newAgentImageID(),
			name: name.Value, dockerfile: dockerfile.Value, version: 1, createdAt: now,
			readyAt: now.Add(max(build, 0)), buildError: buildErrorOf(dockerfile.Value),
		}
		s.store.agentImages.images.insert(i)
		s.store.agentImages.hostedClusters[c.id] = true
		return s.store.agentImageView(baseURL(r), i), nil
	})
}

func (s *Server) deleteAgentImageHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		i, err := s.store.findAgentImage(org, r)
		if err != nil {
			return err
		}
		var users []string
		for _, q := range s.store.queuesOf(i.clusterID) {
			if q.hosted != nil && q.hosted.agentImageRef != nil && *q.hosted.agentImageRef == i.imageRef() {
				users = append(users, q.key)
			}
		}
		if len(users) > 0 {
			return errUnprocessable("Agent image is in use by queues " + strings.Join(users, ", ") +
				": change their agent image before deleting it")
		}
		s.store.deleteAgentImage(i)
		return nil
	})
}

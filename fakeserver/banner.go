package fakeserver

import (
	"net/http"
	"strings"
	"time"
)

// The organization banner (https://buildkite.com/docs/apis/rest-api/organizations/banner): GET, PUT and
// DELETE /v2/organizations/{org}/banner, at most one per organization, shown to every member. PUT creates
// it (201) or changes its message (200, the same banner); GET and DELETE answer 404 when there is none.
// Administrators only, with read_organization_settings or write_organization_settings, on the Enterprise
// plan (Store.SetOrgPlan; 403 otherwise).
//
// Choices where the facts are silent: a banner deleted and put again is a new banner (a new UUID); the
// message is kept as sent (Markdown, not trimmed).

// KindOrganizationBanner is an organization's banner, for Store.Exists and Store.Remove, keyed by the
// organization's slug (or the banner's UUID).
const KindOrganizationBanner Kind = "organization_banner"

// maxBannerMessage is the longest message the service accepts.
const maxBannerMessage = 2000

func init() {
	registerKind(KindOrganizationBanner, (*Store).bannerByKey, (*Store).deleteBanner)
}

// bannerState is this area's part of the Store: each organization's banner, by slug.
type bannerState struct {
	byOrg map[string]*bannerRecord
}

func newBannerState() bannerState { return bannerState{byOrg: map[string]*bannerRecord{}} }

type bannerRecord struct {
	org, id, message     string
	createdAt, updatedAt time.Time
}

// bannerByKey returns org's banner when key is the organization's slug or the banner's UUID. A lock must
// be held.
func (st *Store) bannerByKey(org, key string) *bannerRecord {
	b := st.banners.byOrg[org]
	if b == nil || (key != org && !strings.EqualFold(key, b.id)) {
		return nil
	}
	return b
}

// errNoBanners: the organization's plan has no banners (403).
func errNoBanners() *apiError {
	return newMessageError(http.StatusForbidden, "Organization banners are available on the Enterprise plan")
}

// bannerAllowed refuses a user who is not an administrator, and an organization whose plan has no banners
// (the Enterprise plan has them). A lock must be held.
func (st *Store) bannerAllowed(org orgRecord, user userRecord) *apiError {
	if !st.isAdmin(org.slug, user.id) {
		return errNotAdministrator()
	}
	if !org.enterprise {
		return errNoBanners()
	}
	return nil
}

// deleteBanner removes b. The write lock must be held.
func (st *Store) deleteBanner(b *bannerRecord) { delete(st.banners.byOrg, b.org) }

// BannerMessage returns org's banner message and whether it has a banner, for tests to check.
func (st *Store) BannerMessage(org string) (string, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if b := st.banners.byOrg[org]; b != nil {
		return b.message, true
	}
	return "", false
}

type bannerView struct {
	UUID      string `json:"uuid"`
	GraphQLID string `json:"graphql_id"`
	URL       string `json:"url"`
	Message   string `json:"message"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

func bannerViewOf(base string, b *bannerRecord) bannerView {
	return bannerView{
		UUID: b.id, GraphQLID: graphQLID("OrganizationBanner", b.id), URL: apiURL(base, "organizations", b.org, "banner"),
		Message: b.message, CreatedAt: formatTime(b.createdAt), UpdatedAt: formatTime(b.updatedAt),
	}
}

func (s *Server) routeBanner(mux *routeMux) {
	const banner = "/v2/organizations/{org}/banner"
	mux.HandleFunc("GET "+banner, s.getBanner)
	mux.HandleFunc("PUT "+banner, s.putBanner)
	mux.HandleFunc("DELETE "+banner, s.deleteBannerHandler)
}

func (s *Server) getBanner(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizationSettings, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := s.store.bannerAllowed(org, user); err != nil {
			return nil, err
		}
		b := s.store.banners.byOrg[org.slug]
		if b == nil {
			return nil, errNotFound("banner")
		}
		return bannerViewOf(baseURL(r), b), nil
	})
}

// putBanner creates the banner (201) or changes its message (200): {"message": "<Markdown>"}.
// Not on serveWrite: which status it answers is known only under the lock.
func (s *Server) putBanner(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteOrganizationSettings)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	status := http.StatusOK
	var out bannerView
	err := s.store.update(func() *apiError {
		if err := s.store.bannerAllowed(org, user); err != nil {
			return err
		}
		msg := field[string](in, "message", "a string")
		problems := in.Problems()
		if len(problems) == 0 {
			checkBannerMessage(&problems, msg.Value)
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		if s.store.banners.byOrg[org.slug] == nil {
			status = http.StatusCreated
		}
		out = bannerViewOf(baseURL(r), s.store.upsertBanner(org.slug, msg.Value))
		return nil
	})
	respond(w, status, out, err)
}

// checkBannerMessage records the problem of a banner message: blank, or longer than the service takes.
func checkBannerMessage(problems *validationErrors, msg string) {
	switch {
	case strings.TrimSpace(msg) == "":
		problems.addBlank("message")
	case len([]rune(msg)) > maxBannerMessage:
		problems.add("message", "is too long (maximum is 2000 characters)")
	}
}

// upsertBanner creates org's banner with msg, or changes the message of the one it has. The write lock
// must be held.
func (st *Store) upsertBanner(org, msg string) *bannerRecord {
	now := st.timestamp()
	b := st.banners.byOrg[org]
	if b == nil {
		b = &bannerRecord{org: org, id: newID(), createdAt: now}
		st.banners.byOrg[org] = b
	}
	b.message, b.updatedAt = msg, now
	return b
}

func (s *Server) deleteBannerHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteOrganizationSettings, http.StatusNoContent, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := s.store.bannerAllowed(org, user); err != nil {
			return nil, err
		}
		b := s.store.banners.byOrg[org.slug]
		if b == nil {
			return nil, errNotFound("banner")
		}
		s.store.deleteBanner(b)
		return nil, nil
	})
}

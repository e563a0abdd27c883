package fakeserver

import (
	"net/http"
	"strings"
)

// Scopes (https://buildkite.com/docs/apis/managing-api-tokens#token-scopes), one constant per scope the
// handlers check.
const (
	scopeReadOrganizations      = "read_organizations"
	scopeReadClusters           = "read_clusters"
	scopeWriteClusters          = "write_clusters"
	scopeReadTeams              = "read_teams"
	scopeViewTeams              = "view_teams"
	scopeWriteTeams             = "write_teams"
	scopeReadPipelineTemplates  = "read_pipeline_templates"
	scopeWritePipelineTemplates = "write_pipeline_templates"
	scopeReadPipelines          = "read_pipelines"
	scopeWritePipelines         = "write_pipelines"
	scopeReadBuilds             = "read_builds"
	scopeWriteBuilds            = "write_builds" // creating a build: the documentation does not show the scope
	scopeReadSuites             = "read_suites"
	scopeWriteSuites            = "write_suites"
	scopeReadRegistries         = "read_registries"
	scopeWriteRegistries        = "write_registries"
	scopeDeleteRegistries       = "delete_registries"
	scopeReadRules              = "read_rules"
	scopeWriteRules             = "write_rules"

	scopeReadPortals               = "read_portals"
	scopeWritePortals              = "write_portals"
	scopeReadNotificationServices  = "read_notification_services"
	scopeWriteNotificationServices = "write_notification_services"
)

// AllScopes returns every scope the emulator knows, the scopes of Options.Token. Tests pass a subset to
// Store.AddToken to check 403s.
func AllScopes() []string {
	return []string{
		scopeReadOrganizations,
		scopeReadClusters, scopeWriteClusters,
		scopeReadTeams, scopeViewTeams, scopeWriteTeams,
		scopeReadPipelineTemplates, scopeWritePipelineTemplates,
		scopeReadPipelines, scopeWritePipelines,
		scopeReadBuilds, scopeWriteBuilds,
		scopeReadSuites, scopeWriteSuites,
		scopeReadRegistries, scopeWriteRegistries, scopeDeleteRegistries,
		scopeReadRules, scopeWriteRules,
		scopeReadOrganizationSettings, scopeWriteOrganizationSettings,
		scopeReadPortals, scopeWritePortals,
		scopeReadNotificationServices, scopeWriteNotificationServices,
		scopeReadAgents, scopeWriteAgents, scopeReadArtifacts, scopeWriteArtifacts, scopeReadJobLogs, scopeWriteJobLogs,
		scopeGraphQL,
		scopeWriteOrgs, scopeReadInvitations, scopeWriteInvitations,
		scopeReadUser, scopeReadAccounts,
	}
}

// bearerToken returns the access token of an "Authorization: Bearer <token>" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// authenticate checks the request's access token (401) and that it holds scope (403; "" needs none). It writes the error
// itself and returns false on failure. Endpoints outside an organization (such as GET /v2/builds) call it
// directly; endpoints under /v2/organizations/{org} call authorize.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request, scope string) (tokenRecord, userRecord, bool) {
	var tok tokenRecord
	var usr userRecord
	err := s.store.view(func() *apiError {
		secret, ok := bearerToken(r)
		if !ok {
			return errUnauthorized()
		}
		t, ok := s.store.tokens[secret]
		if !ok {
			return errUnauthorized()
		}
		if scope != "" && !t.scopes[scope] {
			return errMissingScope(scope)
		}
		u, ok := s.store.users[t.userID]
		if !ok {
			return errUnauthorized()
		}
		tok, usr = *t, *u
		return nil
	})
	if err != nil {
		writeError(w, err)
		return tokenRecord{}, userRecord{}, false
	}
	return tok, usr, true
}

// authorize is the first call of every handler under /v2/organizations/{org}: it authenticates the token
// (401), checks scope (403) and finds the path's organization among the token's (404 "No organization
// found" for an unknown one and for one the token does not see), and refuses a caller outside the
// organization's API allowlist (403, allowlist.go). It writes the error itself and returns
// false on failure; on success it returns copies of the organization and of the token's user. The copy
// shares the store's members map: read membership through st.isMember/st.isAdmin under a lock instead.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, scope string) (orgRecord, userRecord, bool) {
	tok, usr, ok := s.authenticate(w, r, scope)
	if !ok {
		return orgRecord{}, userRecord{}, false
	}
	var org orgRecord
	err := s.store.view(func() *apiError {
		slug := r.PathValue("org")
		o, ok := s.store.orgs[slug]
		if !ok || !tok.orgs[slug] {
			return errNotFound("organization")
		}
		org = *o
		return s.allowlistRefuses(r, slug)
	})
	if err != nil {
		writeError(w, err)
		return orgRecord{}, userRecord{}, false
	}
	return org, usr, true
}

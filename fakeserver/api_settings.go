package fakeserver

import (
	"net"
	"net/http"
	"strings"
)

// Organization API settings (https://buildkite.com/docs/apis/rest-api/organizations/api-settings): GET and PATCH
// /v2/organizations/{org}/api-settings, the allowlist of networks the API may be called from, the revocation
// of inactive API tokens and whether members may create API tokens. Only administrators reach them, with
// read_organization_settings or write_organization_settings. The two plan-gated settings answer 403 to a
// PATCH that names them where the organization's plan lacks the feature (Store.SetAPISettingsFeatures).
//
// Choices where the facts are silent: an organization starts with no allowlist, no revocation, token
// creation unrestricted, and both features (the emulator's default plan is enterprise); the allowlist is
// stored as the service shows it (CIDRs joined by single spaces, or null when empty) and enforced on
// every request to the organization (allowlist.go); a PATCH checks every field before changing any.

// Scopes of the organization's settings (API settings and the banner).
const (
	scopeReadOrganizationSettings  = "read_organization_settings"
	scopeWriteOrganizationSettings = "write_organization_settings"
)

// revocationDays are the only revoke_inactive_tokens_after_days the service accepts.
var revocationDays = map[int]bool{30: true, 60: true, 90: true, 180: true, 365: true}

// apiSettingsState is this area's part of the Store: the settings of each organization that has changed
// them, by slug (an organization without a record has the defaults).
type apiSettingsState struct {
	byOrg map[string]*apiSettingsRecord
}

func newAPISettingsState() apiSettingsState {
	return apiSettingsState{byOrg: map[string]*apiSettingsRecord{}}
}

type apiSettingsRecord struct {
	allowedIPs    string // CIDRs joined by spaces; "" for none
	revokeDays    int    // 0 for never
	restrictToken bool
	// The plan's features; true unless a test turned them off.
	noIPAllowList, noRevocation bool
}

// apiSettings returns org's settings, made on first use. The write lock must be held.
func (st *Store) apiSettings(org string) *apiSettingsRecord {
	rec, ok := st.orgSettings.byOrg[org]
	if !ok {
		rec = &apiSettingsRecord{}
		st.orgSettings.byOrg[org] = rec
	}
	return rec
}

// apiSettingsOrDefault returns org's settings, or the defaults, without making a record. A lock must be held.
func (st *Store) apiSettingsOrDefault(org string) apiSettingsRecord {
	if rec, ok := st.orgSettings.byOrg[org]; ok {
		return *rec
	}
	return apiSettingsRecord{}
}

// SetAPISettingsFeatures sets whether org's plan has the API IP allowlist and inactive token revocation.
func (st *Store) SetAPISettingsFeatures(org string, ipAllowList, revocation bool) {
	defer st.edit()()
	rec := st.apiSettings(org)
	rec.noIPAllowList, rec.noRevocation = !ipAllowList, !revocation
}

// APISettings returns org's allowlist as the service shows it ("" for none), the revocation interval in
// days (0 for never) and whether API token creation is restricted, for tests to check.
func (st *Store) APISettings(org string) (allowedIPs string, revokeDays int, restrict bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	rec := st.apiSettingsOrDefault(org)
	return rec.allowedIPs, rec.revokeDays, rec.restrictToken
}

// SetAPISettings changes org's settings behind the API's back (a change made in the web interface).
func (st *Store) SetAPISettings(org, allowedIPs string, revokeDays int, restrict bool) {
	defer st.edit()()
	rec := st.apiSettings(org)
	rec.allowedIPs, rec.revokeDays, rec.restrictToken = strings.Join(strings.Fields(allowedIPs), " "), revokeDays, restrict
}

type apiSettingsFeaturesView struct {
	APIIPAllowList             bool `json:"api_ip_allow_list"`
	InactiveAPITokenRevocation bool `json:"inactive_api_token_revocation"`
}

type apiSettingsView struct {
	URL                           string                  `json:"url"`
	AllowedIPAddresses            *string                 `json:"allowed_ip_addresses"`
	RevokeInactiveTokensAfterDays *int                    `json:"revoke_inactive_tokens_after_days"`
	RestrictUserAPITokenCreation  bool                    `json:"restrict_user_api_token_creation"`
	Features                      apiSettingsFeaturesView `json:"features"`
}

func apiSettingsViewOf(base, org string, rec apiSettingsRecord) apiSettingsView {
	v := apiSettingsView{
		URL:                          apiURL(base, "organizations", org, "api-settings"),
		RestrictUserAPITokenCreation: rec.restrictToken,
		Features:                     apiSettingsFeaturesView{APIIPAllowList: !rec.noIPAllowList, InactiveAPITokenRevocation: !rec.noRevocation},
	}
	if rec.allowedIPs != "" {
		v.AllowedIPAddresses = stringPtr(rec.allowedIPs)
	}
	if rec.revokeDays != 0 {
		days := rec.revokeDays
		v.RevokeInactiveTokensAfterDays = &days
	}
	return v
}

func (s *Server) routeAPISettings(mux *routeMux) {
	const settings = "/v2/organizations/{org}/api-settings"
	mux.HandleFunc("GET "+settings, s.getAPISettings)
	mux.HandleFunc("PATCH "+settings, s.patchAPISettings)
}

// errNoIPAllowList: the organization's plan has no API IP allowlist (403).
func errNoIPAllowList() *apiError {
	return newMessageError(http.StatusForbidden, "Your organization's plan does not include the API IP allowlist")
}

// readAllowedIPs splits an allowlist (CIDRs separated by spaces) and records a problem when one is not a
// CIDR; a blank list is no list.
func readAllowedIPs(list string) (cidrs []string, problems validationErrors) {
	cidrs = strings.Fields(list)
	for _, c := range cidrs {
		if _, _, err := net.ParseCIDR(c); err != nil {
			problems.addOnce("allowed_ip_addresses", "must be IP networks in CIDR notation, separated by spaces")
		}
	}
	return cidrs, problems
}

// errNotAdministrator: the token's user is not an administrator of the organization (403).
func errNotAdministrator() *apiError {
	return newMessageError(http.StatusForbidden, "Only organization administrators can manage organization settings")
}

func (s *Server) getAPISettings(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizationSettings, func(org orgRecord, user userRecord) (any, *apiError) {
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errNotAdministrator()
		}
		return apiSettingsViewOf(baseURL(r), org.slug, s.store.apiSettingsOrDefault(org.slug)), nil
	})
}

// patchAPISettings changes what the body names: allowed_ip_addresses (CIDRs separated by spaces; null or
// blank removes the list), revoke_inactive_tokens_after_days (one of revocationDays; null for never) and
// restrict_user_api_token_creation.
func (s *Server) patchAPISettings(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteOrganizationSettings, http.StatusOK, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errNotAdministrator()
		}
		current := s.store.apiSettingsOrDefault(org.slug)
		ips, days, restrict := in.String("allowed_ip_addresses"), in.Int("revoke_inactive_tokens_after_days"), in.Bool("restrict_user_api_token_creation")
		problems := in.Problems()
		if ips.Set && current.noIPAllowList {
			return nil, errNoIPAllowList()
		}
		if days.Set && current.noRevocation {
			return nil, newMessageError(http.StatusForbidden, "Your organization's plan does not include inactive API token revocation")
		}
		cidrs, ipProblems := readAllowedIPs(ips.Value)
		problems = append(problems, ipProblems...)
		if days.Given() && !revocationDays[days.Value] {
			problems.add("revoke_inactive_tokens_after_days", "must be one of 30, 60, 90, 180 or 365")
		}
		if restrict.Null {
			problems.add("restrict_user_api_token_creation", "must be a boolean")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		rec := s.store.apiSettings(org.slug)
		if ips.Set {
			rec.allowedIPs = strings.Join(cidrs, " ")
		}
		if days.Set {
			rec.revokeDays = days.Value
		}
		if restrict.Given() {
			rec.restrictToken = restrict.Value
		}
		return apiSettingsViewOf(baseURL(r), org.slug, *rec), nil
	})
}

package buildkite

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// OrgSettingsService reads and changes the organization's settings that REST serves: its API settings
// (the allowlist of networks the API may be called from, the revocation of inactive API tokens, who may
// create API tokens) and its banner. Both need an administrator's token with read_organization_settings
// or write_organization_settings.
type OrgSettingsService struct{ client *Client }

// APISettings is what GET and PATCH /api-settings answer.
type APISettings struct {
	URL string `json:"url"`
	// AllowedIPAddresses are CIDRs joined by spaces, or nil for no allowlist.
	AllowedIPAddresses *string `json:"allowed_ip_addresses"`
	// RevokeInactiveTokensAfterDays is nil for never.
	RevokeInactiveTokensAfterDays *int64              `json:"revoke_inactive_tokens_after_days"`
	RestrictUserAPITokenCreation  bool                `json:"restrict_user_api_token_creation"`
	Features                      APISettingsFeatures `json:"features"`
}

// APISettingsFeatures says which of the plan-gated settings the organization's plan includes.
type APISettingsFeatures struct {
	APIIPAllowList             bool `json:"api_ip_allow_list"`
	InactiveAPITokenRevocation bool `json:"inactive_api_token_revocation"`
}

var _ identified = (*APISettings)(nil)

func (x *APISettings) identity() (string, string) { return "url", x.URL }

// AllowedIPs returns the allowlist as a list; empty for none.
func (x *APISettings) AllowedIPs() []string {
	if x.AllowedIPAddresses == nil {
		return nil
	}
	return strings.Fields(*x.AllowedIPAddresses)
}

// APISettingsUpdate is the body of a PATCH: unset fields are left out, Cleared ones sent as null. The
// fields are in their keys' sorted order, the order the body had when it was built as a map.
type APISettingsUpdate struct {
	// AllowedIPAddresses is the allowlist, CIDRs joined by spaces; Cleared removes it.
	AllowedIPAddresses           Optional[string] `json:"allowed_ip_addresses,omitzero"`
	RestrictUserAPITokenCreation Optional[bool]   `json:"restrict_user_api_token_creation,omitzero"`
	// RevokeInactiveTokensAfterDays is the days after which an unused token is revoked; Cleared: never.
	RevokeInactiveTokensAfterDays Optional[int64] `json:"revoke_inactive_tokens_after_days,omitzero"`
}

// IsZero reports whether the update changes nothing: it sends nothing.
func (u APISettingsUpdate) IsZero() bool {
	return u.AllowedIPAddresses.IsZero() && u.RestrictUserAPITokenCreation.IsZero() &&
		u.RevokeInactiveTokensAfterDays.IsZero()
}

// GetAPISettings returns the organization's API settings.
func (s *OrgSettingsService) GetAPISettings(ctx context.Context) (*APISettings, error) {
	p, err := s.client.orgPath("api-settings")
	if err != nil {
		return nil, err
	}
	return get[APISettings](ctx, s.client, p, nil)
}

// UpdateAPISettings changes what u names and returns the whole settings. Repeating it has no further effect.
func (s *OrgSettingsService) UpdateAPISettings(ctx context.Context, u APISettingsUpdate) (*APISettings, error) {
	p, err := s.client.orgPath("api-settings")
	if err != nil {
		return nil, err
	}
	return change[APISettings](ctx, s.client, http.MethodPatch, p, u)
}

// Banner is the organization's banner, shown to every member.
type Banner struct {
	UUID      string     `json:"uuid"`
	GraphQLID string     `json:"graphql_id"`
	URL       string     `json:"url"`
	Message   string     `json:"message"`
	CreatedAt *time.Time `json:"created_at"`
	UpdatedAt *time.Time `json:"updated_at"`
}

var _ identified = (*Banner)(nil)

func (x *Banner) identity() (string, string) { return "uuid", x.UUID }

// GetBanner returns the organization's banner; a 404 means it has none.
func (s *OrgSettingsService) GetBanner(ctx context.Context) (*Banner, error) {
	p, err := s.client.orgPath("banner")
	if err != nil {
		return nil, err
	}
	return get[Banner](ctx, s.client, p, nil)
}

// PutBanner creates the banner or changes its message (there is at most one, so repeating it has no
// further effect).
func (s *OrgSettingsService) PutBanner(ctx context.Context, message string) (*Banner, error) {
	p, err := s.client.orgPath("banner")
	if err != nil {
		return nil, err
	}
	return change[Banner](ctx, s.client, http.MethodPut, p, map[string]string{"message": message})
}

// DeleteBanner removes the banner (204; 404 when there is none).
func (s *OrgSettingsService) DeleteBanner(ctx context.Context) error {
	p, err := s.client.orgPath("banner")
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

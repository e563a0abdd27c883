package buildkite

import "context"

// AccessTokenService reads and revokes the token the client authenticates with.
type AccessTokenService struct{ client *Client }

// AccessToken describes the calling token.
type AccessToken struct {
	UUID        string   `json:"uuid"`
	Scopes      []string `json:"scopes"`
	Description string   `json:"description"`
	// CreatedAt is kept as sent: the service uses "YYYY-MM-DD HH:MM:SS UTC", not RFC 3339.
	CreatedAt string `json:"created_at"`
	User      *User  `json:"user"`
}

var _ identified = (*AccessToken)(nil)

func (x *AccessToken) identity() (string, string) { return "uuid", x.UUID }

// HasScope reports whether the token holds scope.
func (t *AccessToken) HasScope(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Get returns the calling token and its scopes; no scope is needed, and a 401 means the token is unknown.
func (s *AccessTokenService) Get(ctx context.Context) (*AccessToken, error) {
	return get[AccessToken](ctx, s.client, pathAccessToken, nil)
}

// Revoke revokes the calling token; every later call with it is a 401.
func (s *AccessTokenService) Revoke(ctx context.Context) error {
	return s.client.remove(ctx, pathAccessToken)
}

package buildkite

import "time"

// User is the user summary the service embeds as created_by,
// dispatch_paused_by and similar fields.
type User struct {
	ID        string     `json:"id"`
	GraphQLID string     `json:"graphql_id"`
	Name      string     `json:"name"`
	Email     string     `json:"email"`
	AvatarURL *string    `json:"avatar_url"`
	CreatedAt *time.Time `json:"created_at"`
}

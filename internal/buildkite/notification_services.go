package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// NotificationServicesService manages the organization's notification services (webhooks, Amazon
// EventBridge, Datadog Pipeline Visibility, OpenTelemetry tracing, and those connected in the web interface).
type NotificationServicesService struct{ client *Client }

// NotificationServices returns the service for the organization's notification services.
func (c *Client) NotificationServices() *NotificationServicesService {
	return &NotificationServicesService{client: c}
}

// NotificationService is a notification service (rest-beyond-spec.md, "Notification services"). Settings
// depend on the provider; the service masks or leaves out its secrets.
type NotificationService struct {
	ID                  string                      `json:"id"`
	GraphQLID           *string                     `json:"graphql_id"`
	URL                 string                      `json:"url"`
	Provider            NotificationServiceProvider `json:"provider"`
	Description         *string                     `json:"description"`
	Enabled             bool                        `json:"enabled"`
	Scope               string                      `json:"scope"`
	ScopeUUIDs          []string                    `json:"scope_uuids"`
	BranchConfiguration *string                     `json:"branch_configuration"`
	BuildStates         map[string]bool             `json:"build_states"`
	Settings            json.RawMessage             `json:"settings"`
	CreatedAt           *time.Time                  `json:"created_at"`
	CreatedBy           *User                       `json:"created_by"`
}

// NotificationServiceProvider names a service's provider.
type NotificationServiceProvider struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

var _ identified = (*NotificationService)(nil)

func (x *NotificationService) identity() (string, string) { return "id", x.ID }

// notificationServicePage is one page of the cursor-paged listing.
type notificationServicePage struct {
	Items *[]NotificationService `json:"items"`
	Links struct {
		Next *string `json:"next"`
	} `json:"links"`
}

// List returns every notification service, oldest first, following the listing's cursor (links.next).
func (s *NotificationServicesService) List(ctx context.Context) ([]NotificationService, error) {
	p, err := s.client.orgPath("services")
	if err != nil {
		return nil, err
	}
	all := []NotificationService{}
	q := url.Values{"per_page": {strconv.Itoa(perPage)}}
	seen := map[string]bool{}
	for pages := 0; ; pages++ {
		if pages == maxPages {
			return nil, fmt.Errorf("GET %s: more than %d pages", p, maxPages)
		}
		page, err := get[notificationServicePage](ctx, s.client, p, q)
		if err != nil {
			return nil, err
		}
		if page.Items == nil {
			return nil, fmt.Errorf("GET %s: the answer holds no items", p)
		}
		all = append(all, *page.Items...)
		if page.Links.Next == nil || *page.Links.Next == "" || len(*page.Items) == 0 {
			return all, nil
		}
		next, err := url.Parse(*page.Links.Next)
		if err != nil {
			return nil, fmt.Errorf("GET %s: the next link %q: %w", p, *page.Links.Next, err)
		}
		// The cursor is all that is taken from the link: the path stays the organization's listing, on
		// the client's own origin, so the token is never sent elsewhere.
		q = next.Query()
		if seen[q.Encode()] {
			return all, nil
		}
		seen[q.Encode()] = true
	}
}

// Get returns the notification service with the UUID id.
func (s *NotificationServicesService) Get(ctx context.Context, id string) (*NotificationService, error) {
	p, err := s.client.orgPath("services", id)
	if err != nil {
		return nil, err
	}
	return get[NotificationService](ctx, s.client, p, nil)
}

// adoptWindow is how long before a create a service found after a lost answer may have been created: the
// service's clock and ours may differ by that much.
const adoptWindow = time.Minute

// Create creates a notification service from body (provider, scope, settings, ...). Services have no
// unique name, so after an unknown outcome the one the lost answer made is recognised by what it holds:
// the newest service, created since shortly before this call, whose provider, description, scope, branch
// filter and shown settings are those sent (a masked secret by its last characters).
func (s *NotificationServicesService) Create(ctx context.Context, body map[string]any) (*NotificationService, error) {
	p, err := s.client.orgPath("services")
	if err != nil {
		return nil, err
	}
	since := time.Now().Add(-adoptWindow)
	return createOrAdopt(ctx, s.client, p, body, func(ctx context.Context) (*NotificationService, error) {
		all, err := s.List(ctx)
		if err != nil {
			return nil, err
		}
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].CreatedAt != nil && all[i].CreatedAt.After(since) && madeFrom(&all[i], body) {
				return &all[i], nil
			}
		}
		return nil, nil
	})
}

// madeFrom reports whether the service holds what a create body sent.
func madeFrom(svc *NotificationService, body map[string]any) bool {
	str := func(k string) string { v, _ := body[k].(string); return v }
	if svc.Provider.ID != str("provider") || deref(svc.Description) != str("description") ||
		deref(svc.BranchConfiguration) != str("branch_configuration") {
		return false
	}
	if scope := str("scope"); scope != "" && scope != svc.Scope {
		return false
	}
	sent, _ := body["settings"].(map[string]any)
	var shown map[string]any
	if len(svc.Settings) > 0 {
		if err := json.Unmarshal(svc.Settings, &shown); err != nil {
			return false
		}
	}
	for k, v := range sent {
		got, ok := shown[k]
		if !ok {
			continue // a secret the service never shows
		}
		want, _ := json.Marshal(v)
		have, _ := json.Marshal(got)
		if string(want) == string(have) {
			continue
		}
		w, isString := v.(string)
		h, _ := got.(string)
		tail := strings.TrimLeft(h, "X")
		if !isString || tail == "" || !strings.HasSuffix(w, tail) {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Update changes the fields body names (PATCH); omitted fields and settings keys stay, null clears.
func (s *NotificationServicesService) Update(ctx context.Context, id string, body map[string]any) (*NotificationService, error) {
	p, err := s.client.orgPath("services", id)
	if err != nil {
		return nil, err
	}
	return change[NotificationService](ctx, s.client, http.MethodPatch, p, body)
}

// SetEnabled enables or disables the service (PUT .../enable or .../disable).
func (s *NotificationServicesService) SetEnabled(ctx context.Context, id string, enabled bool) (*NotificationService, error) {
	action := "disable"
	if enabled {
		action = "enable"
	}
	p, err := s.client.orgPath("services", id, action)
	if err != nil {
		return nil, err
	}
	return change[NotificationService](ctx, s.client, http.MethodPut, p, nil)
}

// Delete deletes the service.
func (s *NotificationServicesService) Delete(ctx context.Context, id string) error {
	p, err := s.client.orgPath("services", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

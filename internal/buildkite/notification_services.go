package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// NotificationServicesService manages the organization's notification services (webhooks, Amazon
// EventBridge, Datadog Pipeline Visibility, OpenTelemetry tracing, and those connected in the web interface).
type NotificationServicesService struct{ client *Client }

// NotificationService is a notification service
// (https://buildkite.com/docs/apis/rest-api/organizations/notification-services). Settings depend on the
// provider; the service masks or leaves out its secrets.
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
	Settings            NotificationServiceShown    `json:"settings"`
	CreatedAt           *time.Time                  `json:"created_at"`
	CreatedBy           *User                       `json:"created_by"`
}

// NotificationServiceProvider names a service's provider.
type NotificationServiceProvider struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NotificationServiceShown is every settings key the service answers, of any provider; a secret it masks
// holds its last characters after X's (XXXXXXXX9012), one it never shows is nil.
type NotificationServiceShown struct {
	URL                  *string           `json:"url"`
	Token                *string           `json:"token"`
	TokenMode            *string           `json:"token_mode"`
	Version              *int64            `json:"version"`
	Events               []string          `json:"events"`
	TLSVerify            *bool             `json:"tls_verify"`
	AWSRegion            *string           `json:"aws_region"`
	AWSAccountID         *string           `json:"aws_account_id"`
	EventSourceName      *string           `json:"event_source_name"`
	IncludeBuildMetaData *string           `json:"include_build_meta_data"`
	APIKey               *string           `json:"api_key"`
	DatadogSite          *string           `json:"datadog_site"`
	DatadogTags          *string           `json:"datadog_tags"`
	Endpoint             *string           `json:"endpoint"`
	ServiceName          *string           `json:"service_name"`
	ResourceAttributes   map[string]string `json:"resource_attributes"`
}

// NotificationServiceSettings are the settings a create or an update sends, those of the service's provider
// only: an unset field is left out (a create leaves it to the service, an update leaves it as it is), a
// cleared one is sent as null.
type NotificationServiceSettings struct {
	URL                  Optional[string]            `json:"url,omitzero"`
	Token                Optional[string]            `json:"token,omitzero"`
	TokenMode            Optional[string]            `json:"token_mode,omitzero"`
	Version              Optional[int64]             `json:"version,omitzero"`
	Events               Optional[[]string]          `json:"events,omitzero"`
	TLSVerify            Optional[bool]              `json:"tls_verify,omitzero"`
	AWSRegion            Optional[string]            `json:"aws_region,omitzero"`
	AWSAccountID         Optional[string]            `json:"aws_account_id,omitzero"`
	IncludeBuildMetaData Optional[string]            `json:"include_build_meta_data,omitzero"`
	APIKey               Optional[string]            `json:"api_key,omitzero"`
	DatadogSite          Optional[string]            `json:"datadog_site,omitzero"`
	DatadogTags          Optional[string]            `json:"datadog_tags,omitzero"`
	Endpoint             Optional[string]            `json:"endpoint,omitzero"`
	ServiceName          Optional[string]            `json:"service_name,omitzero"`
	Headers              Optional[map[string]string] `json:"headers,omitzero"`
	ResourceAttributes   Optional[map[string]string] `json:"resource_attributes,omitzero"`
}

// IsZero reports whether no setting is sent.
func (s NotificationServiceSettings) IsZero() bool {
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if !v.Field(i).Interface().(interface{ IsZero() bool }).IsZero() {
			return false
		}
	}
	return true
}

// NotificationServiceCreate is the body of a create. An empty Scope is left to the service (all); so are
// empty ScopeUUIDs.
type NotificationServiceCreate struct {
	Provider            string                      `json:"provider"`
	Description         *string                     `json:"description,omitempty"`
	BranchConfiguration *string                     `json:"branch_configuration,omitempty"`
	Scope               string                      `json:"scope,omitempty"`
	ScopeUUIDs          []string                    `json:"scope_uuids,omitempty"`
	Settings            NotificationServiceSettings `json:"settings,omitzero"`
}

// NotificationServiceUpdate is the body of a PATCH: unset fields and settings are left as they are,
// cleared ones are sent as null.
type NotificationServiceUpdate struct {
	Description         Optional[string]            `json:"description,omitzero"`
	BranchConfiguration Optional[string]            `json:"branch_configuration,omitzero"`
	Scope               Optional[string]            `json:"scope,omitzero"`
	ScopeUUIDs          Optional[[]string]          `json:"scope_uuids,omitzero"`
	Settings            NotificationServiceSettings `json:"settings,omitzero"`
}

// IsZero reports whether the update changes nothing.
func (u NotificationServiceUpdate) IsZero() bool {
	return u.Description.IsZero() && u.BranchConfiguration.IsZero() && u.Scope.IsZero() && u.ScopeUUIDs.IsZero() &&
		u.Settings.IsZero()
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

// Create creates a notification service. Services have no unique name, so after an unknown outcome the
// one the lost answer made is recognised by what it holds: the one service that was not there before the
// create was sent whose provider, description, scope, branch filter and shown settings are those sent (a
// masked secret by its last characters).
func (s *NotificationServicesService) Create(ctx context.Context, body NotificationServiceCreate) (*NotificationService, error) {
	p, err := s.client.orgPath("services")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, body, lostCreate[NotificationService]{
		matching: func(ctx context.Context) ([]NotificationService, error) {
			all, err := s.List(ctx)
			return keep(all, err, func(svc *NotificationService) bool { return madeFrom(svc, body) })
		},
		id: func(svc *NotificationService) string { return svc.ID },
		describe: func(svc *NotificationService) string {
			return fmt.Sprintf("notification service %q of provider %s (ID %s)", deref(svc.Description), svc.Provider.ID, svc.ID)
		},
	})
}

// madeFrom reports whether the service holds what a create body sent.
func madeFrom(svc *NotificationService, body NotificationServiceCreate) bool {
	if svc.Provider.ID != body.Provider || deref(svc.Description) != deref(body.Description) ||
		deref(svc.BranchConfiguration) != deref(body.BranchConfiguration) {
		return false
	}
	if body.Scope != "" && body.Scope != svc.Scope {
		return false
	}
	var sent, shown map[string]any
	if !asMap(body.Settings, &sent) || !asMap(svc.Settings, &shown) {
		return false
	}
	for k, v := range sent {
		got, ok := shown[k]
		if !ok || got == nil {
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

// asMap puts v's JSON form into out, by key.
func asMap(v any, out *map[string]any) bool {
	raw, err := json.Marshal(v)
	return err == nil && json.Unmarshal(raw, out) == nil
}

// Update changes the fields body sets (PATCH); unset fields and settings stay, cleared ones are cleared.
func (s *NotificationServicesService) Update(ctx context.Context, id string, body NotificationServiceUpdate) (*NotificationService, error) {
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

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of portals and notification services, each found in its organization-wide listing
// (every page of it). A portal's token, which only its create answer holds, is null in every result, as
// after an import; so are a notification service's secrets that the service masks or never shows.

// NewPortalListResource returns the buildkite_portal list resource.
func NewPortalListResource() list.ListResource {
	return &namedList[buildkite.Portal]{
		listBase: newListBase("portal", portalIdentity),
		what:     "portals",
		description: "Finds the organization's portals, shown by name (without their tokens, which the service returns " +
			"only on creation).",
		nameFilter: nameFilterDescription("portal"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Portal, error) {
			return c.Portals().List(ctx)
		},
		name: func(p *buildkite.Portal) string { return p.Name },
		model: func(p *buildkite.Portal) any {
			m := portalModel{}
			m.fromAPI(p)
			return &m
		},
	}
}

// NewNotificationServiceListResource returns the buildkite_notification_service list resource. A service
// has no name: it is shown, and filtered, by its description, or by its provider's name where it has none.
// Services of providers the resource does not manage (a Slack incoming webhook, the Event Log API) are
// left out.
func NewNotificationServiceListResource() list.ListResource {
	return &namedList[buildkite.NotificationService]{
		listBase: newListBase("notification_service", notificationServiceIdentity),
		what:     "notification services",
		description: "Finds the organization's notification services, shown by description (or by provider where " +
			"they have none), without the secrets the service masks or never returns.",
		nameFilter: "Only the services with this description, or, for a service without one, this provider name " +
			"(compared without regard to case). Unset, every service.",
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.NotificationService, error) {
			all, err := c.NotificationServices().List(ctx)
			if err != nil {
				return nil, err
			}
			managed := all[:0]
			for _, s := range all {
				if isManagedProvider(s.Provider.ID) {
					managed = append(managed, s)
				}
			}
			return managed, nil
		},
		name: func(s *buildkite.NotificationService) string {
			return displayOr(deref(s.Description), displayOr(s.Provider.Name, s.Provider.ID))
		},
		model: func(s *buildkite.NotificationService) any {
			m := notificationServiceModel{}
			var diags diag.Diagnostics
			m.fromAPI(s, &diags)
			return &m
		},
	}
}

func isManagedProvider(id string) bool {
	for _, p := range nsProviderTypes {
		if p == id {
			return true
		}
	}
	return false
}

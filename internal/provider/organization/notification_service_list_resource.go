package organization

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewNotificationServiceListResource returns the buildkite_notification_service list resource. A service
// has no name: it is shown, and filtered, by its description, or by its provider's name where it has none.
// Services of providers the resource does not manage (a Slack incoming webhook, the Event Log API) are
// left out.
func NewNotificationServiceListResource() list.ListResource {
	return &kit.NamedList[buildkite.NotificationService]{
		ListBase: kit.NewListBase("notification_service", notificationServiceIdentity),
		What:     "notification services",
		Description: "Finds the organization's notification services, shown by description (or by provider where " +
			"they have none), without the secrets the service masks or never returns.",
		NameFilter: "Only the services with this description, or, for a service without one, this provider name " +
			"(compared without regard to case). Unset, every service.",
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.NotificationService, error) {
			all, err := c.NotificationServices.List(ctx)
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
		Name: func(s *buildkite.NotificationService) string {
			return kit.DisplayOr(kit.Deref(s.Description), kit.DisplayOr(s.Provider.Name, s.Provider.ID))
		},
		Model: func(s *buildkite.NotificationService) any {
			m := notificationServiceModel{}
			m.FromAPI(s)
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

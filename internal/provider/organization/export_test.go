package organization

// The names the area's tests (package organization_test) use that the area does not export.

var CheckNotificationServiceForTest = checkNotificationService

const EnvAgentTokenForTest = envAgentToken

var ManagedServiceForTest = managedService

type NotificationServiceModelForTest = notificationServiceModel

type NsDatadogModelForTest = nsDatadogModel

type NsEventBridgeModelForTest = nsEventBridgeModel

type NsOpenTelemetryModelForTest = nsOpenTelemetryModel

const NsProviderDatadogForTest = nsProviderDatadog

const NsProviderEventBridgeForTest = nsProviderEventBridge

const NsProviderOpenTelemetryForTest = nsProviderOpenTelemetry

const NsProviderWebhookForTest = nsProviderWebhook

type NsWebhookModelForTest = nsWebhookModel

type OrganizationDataSourceForTest = organizationDataSource

type OrganizationModelForTest = organizationModel

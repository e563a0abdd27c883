package buildkite

import (
	"context"
	"net/http"
	"time"
)

// PipelineSettingsService reads and changes the organization's pipeline settings
// (/pipeline-settings): defaults for new pipelines, timeouts, switches turned on and off by PUT and
// DELETE, and build export. Every route needs an administrator's token with read_organization_settings
// or write_organization_settings, and answers the whole resource.
type PipelineSettingsService struct{ client *Client }

// PipelineSettings is what every /pipeline-settings route answers.
type PipelineSettings struct {
	URL              string  `json:"url"`
	DefaultBranch    string  `json:"default_branch"`
	DefaultClusterID *string `json:"default_cluster_id"`
	// The timeouts and the expiry are nil when not set.
	DefaultTimeoutInMinutes     *int64        `json:"default_timeout_in_minutes"`
	MaximumTimeoutInMinutes     *int64        `json:"maximum_timeout_in_minutes"`
	ScheduledJobExpiryInMinutes *int64        `json:"scheduled_job_expiry_in_minutes"`
	HostedAgentsTerminalAccess  SettingSwitch `json:"hosted_agents_terminal_access"`
	PublicPipelineCreation      SettingSwitch `json:"public_pipeline_creation"`
	AdvancedQueueMetrics        SettingSwitch `json:"advanced_queue_metrics"`
	BuildExports                BuildExports  `json:"build_exports"`
}

// SettingSwitch is a setting turned on and off, and when it was turned on.
type SettingSwitch struct {
	Enabled   bool       `json:"enabled"`
	EnabledAt *time.Time `json:"enabled_at"`
}

// BuildExports is the organization's build export: available on its plan, configured or not.
type BuildExports struct {
	Available           bool     `json:"available"`
	Enabled             bool     `json:"enabled"`
	Location            *string  `json:"location"`
	StrategyID          *string  `json:"strategy_id"`
	SupportedStrategies []string `json:"supported_strategies"`
}

var _ identified = (*PipelineSettings)(nil)

func (x *PipelineSettings) identity() (string, string) { return "url", x.URL }

// PipelineSettingsUpdate is the body of a PATCH: only the fields set are sent.
type PipelineSettingsUpdate struct {
	DefaultBranch               Optional[string] `json:"default_branch,omitzero"`
	DefaultClusterID            Optional[string] `json:"default_cluster_id,omitzero"` // Cleared: no default cluster
	DefaultTimeoutInMinutes     Optional[int64]  `json:"default_timeout_in_minutes,omitzero"`
	MaximumTimeoutInMinutes     Optional[int64]  `json:"maximum_timeout_in_minutes,omitzero"`
	ScheduledJobExpiryInMinutes Optional[int64]  `json:"scheduled_job_expiry_in_minutes,omitzero"`
}

// IsZero reports whether the update changes nothing: it sends nothing.
func (u PipelineSettingsUpdate) IsZero() bool { return u == PipelineSettingsUpdate{} }

// Get returns the organization's pipeline settings.
func (s *PipelineSettingsService) Get(ctx context.Context) (*PipelineSettings, error) {
	p, err := s.client.orgPath("pipeline-settings")
	if err != nil {
		return nil, err
	}
	return get[PipelineSettings](ctx, s.client, p, nil)
}

// Update changes what u names (only those fields) and returns the whole settings.
func (s *PipelineSettingsService) Update(ctx context.Context, u PipelineSettingsUpdate) (*PipelineSettings, error) {
	p, err := s.client.orgPath("pipeline-settings")
	if err != nil {
		return nil, err
	}
	return change[PipelineSettings](ctx, s.client, http.MethodPatch, p, u)
}

// The switches SetSwitch turns on and off.
const (
	SwitchPublicPipelines      = "public-pipelines"
	SwitchHostedAgentsSSH      = "hosted-agents-ssh"
	SwitchAdvancedQueueMetrics = "advanced-queue-metrics" // one-way: only PUT exists
)

// SetSwitch turns a switch on (PUT) or off (DELETE); either is repeatable.
func (s *PipelineSettingsService) SetSwitch(ctx context.Context, name string, on bool) (*PipelineSettings, error) {
	p, err := s.client.orgPath("pipeline-settings", name)
	if err != nil {
		return nil, err
	}
	method := http.MethodDelete
	if on {
		method = http.MethodPut
	}
	return change[PipelineSettings](ctx, s.client, method, p, nil)
}

// ConfigureBuildExport sets the bucket and strategy of build export (PUT, repeatable).
func (s *PipelineSettingsService) ConfigureBuildExport(ctx context.Context, location, strategyID string) (*PipelineSettings, error) {
	p, err := s.client.orgPath("pipeline-settings", "build-export")
	if err != nil {
		return nil, err
	}
	return change[PipelineSettings](ctx, s.client, http.MethodPut, p, map[string]string{"location": location, "strategy_id": strategyID})
}

// StopBuildExport stops build export (DELETE, repeatable).
func (s *PipelineSettingsService) StopBuildExport(ctx context.Context) (*PipelineSettings, error) {
	p, err := s.client.orgPath("pipeline-settings", "build-export")
	if err != nil {
		return nil, err
	}
	return change[PipelineSettings](ctx, s.client, http.MethodDelete, p, nil)
}

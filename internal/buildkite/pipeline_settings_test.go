package buildkite

import (
	"context"
	"testing"
)

func TestPipelineSettings_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	got, err := c.PipelineSettings.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.DefaultBranch != "main" || got.DefaultClusterID != nil || !got.BuildExports.Available || got.BuildExports.Enabled {
		t.Fatalf("defaults %+v", got)
	}
	if !(PipelineSettingsUpdate{}).IsZero() {
		t.Fatal("an update naming nothing is not empty")
	}
	got, err = c.PipelineSettings.Update(ctx, PipelineSettingsUpdate{DefaultBranch: Value("trunk"), ScheduledJobExpiryInMinutes: Value(int64(90))})
	if err != nil || got.DefaultBranch != "trunk" || got.ScheduledJobExpiryInMinutes == nil || *got.ScheduledJobExpiryInMinutes != 90 {
		t.Fatalf("update %+v, %v", got, err)
	}
	// "" clears the default cluster (sent as null).
	if got, err = c.PipelineSettings.Update(ctx, PipelineSettingsUpdate{DefaultClusterID: Cleared[string]()}); err != nil || got.DefaultClusterID != nil {
		t.Fatalf("clear %+v, %v", got, err)
	}
	if got, err = c.PipelineSettings.SetSwitch(ctx, SwitchPublicPipelines, true); err != nil || !got.PublicPipelineCreation.Enabled ||
		got.PublicPipelineCreation.EnabledAt == nil {
		t.Fatalf("public pipelines on %+v, %v", got, err)
	}
	if got, err = c.PipelineSettings.SetSwitch(ctx, SwitchPublicPipelines, false); err != nil || got.PublicPipelineCreation.Enabled {
		t.Fatalf("public pipelines off %+v, %v", got, err)
	}
	if got, err = c.PipelineSettings.ConfigureBuildExport(ctx, "gs://bucket", "gcs"); err != nil || !got.BuildExports.Enabled ||
		deref(got.BuildExports.Location) != "bucket" {
		t.Fatalf("export %+v, %v", got, err)
	}
	if got, err = c.PipelineSettings.StopBuildExport(ctx); err != nil || got.BuildExports.Enabled || got.BuildExports.Location != nil {
		t.Fatalf("stop export %+v, %v", got, err)
	}
	if _, err := c.PipelineSettings.ConfigureBuildExport(ctx, "bucket", "azure"); !IsValidation(err) {
		t.Fatalf("unknown strategy: %v", err)
	}
}

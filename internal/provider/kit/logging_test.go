package kit

import (
	"os"
	"testing"
)

// TestSilenceUnreadLogs: with neither TF_LOG nor TF_LOG_PROVIDER set, Terraform drops whatever the provider
// logs, so the SDK's and the provider's loggers are turned off and the client logs nothing; a level set
// explicitly stays; with either variable set, nothing changes.
func TestSilenceUnreadLogs(t *testing.T) {
	t.Cleanup(func() { unreadLogs.Store(false) })
	reset := func() {
		t.Helper()
		for _, name := range append([]string{"TF_LOG", "TF_LOG_PROVIDER"}, sdkLogLevels...) {
			t.Setenv(name, "") // restored when the test ends
			if err := os.Unsetenv(name); err != nil {
				t.Fatal(err)
			}
		}
		unreadLogs.Store(false)
	}

	for _, name := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		reset()
		t.Setenv(name, "DEBUG")
		SilenceUnreadLogs()
		for _, level := range sdkLogLevels {
			if v, set := os.LookupEnv(level); set {
				t.Errorf("with %s set, %s was set to %q", name, level, v)
			}
		}
		if ClientLogger() == nil {
			t.Errorf("with %s set, the client logs nothing", name)
		}
	}

	reset()
	t.Setenv("TF_LOG_SDK_FRAMEWORK", "TRACE")
	SilenceUnreadLogs()
	for _, level := range sdkLogLevels {
		want := "OFF"
		if level == "TF_LOG_SDK_FRAMEWORK" {
			want = "TRACE"
		}
		if got := os.Getenv(level); got != want {
			t.Errorf("%s = %q, want %q", level, got, want)
		}
	}
	if ClientLogger() != nil {
		t.Error("with the logs unread, the client still logs")
	}
}

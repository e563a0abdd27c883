package fakeserver

import (
	"net/http"
	"testing"
)

func TestNormalizeConfiguration(t *testing.T) {
	for in, want := range map[string]string{
		"steps:\n- command: x\n":           "steps:\n- command: x\n",
		"steps:\n- command: x":             "steps:\n- command: x",
		"\ufeffsteps:\r\n- command: x\r\n": "steps:\n- command: x\n",
		"steps:\r- command: x\n \n\n":      "steps:\n- command: x\n \n\n",
		"steps:\n- command: x  ":           "steps:\n- command: x  ",
		"":                                 "",
		// Blanks at the end can be a block scalar's content: the spaces ending a `|` block's last line,
		// the blank lines of a `|+` block.
		"steps:\n- command: |\n    make  \n":    "steps:\n- command: |\n    make  \n",
		"steps:\n- command: |+\n    make\n\n":   "steps:\n- command: |+\n    make\n\n",
		"steps:\r\n- command: |+\r\n    a \r\r": "steps:\n- command: |+\n    a \n\n",
	} {
		if got := normalizeConfiguration(in); got != want {
			t.Errorf("normalizeConfiguration(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConfigurationNormalizedOnWrite: pipelines and templates store the normalized text, on create and
// on update alike: without the byte-order mark and CRs, trailing blank lines kept.
func TestConfigurationNormalizedOnWrite(t *testing.T) {
	e := newEnv(t, Options{})
	sent := "\ufeffsteps:\r\n  - command: make\r\n\r\n"
	const stored = "steps:\n  - command: make\n\n"

	tpl := e.api(http.MethodPost, "/pipeline-templates", map[string]any{"name": "t", "configuration": sent})
	expect(t, tpl, http.StatusCreated)
	if got := tpl.object(t)["configuration"]; got != stored {
		t.Errorf("template configuration = %q", got)
	}
	id := tpl.object(t)["uuid"].(string)
	upd := e.api(http.MethodPatch, "/pipeline-templates/"+id, map[string]any{"configuration": sent + "\n"})
	expect(t, upd, http.StatusOK)
	if got := upd.object(t)["configuration"]; got != stored+"\n" {
		t.Errorf("updated template configuration = %q", got)
	}

	p := e.api(http.MethodPost, "/pipelines",
		map[string]any{"name": "p", "repository": "git@github.com:a/b.git", "configuration": sent})
	expect(t, p, http.StatusCreated)
	if got := p.object(t)["configuration"]; got != stored {
		t.Errorf("pipeline configuration = %q", got)
	}
	upd = e.api(http.MethodPatch, "/pipelines/p", map[string]any{"configuration": sent + "\r\n"})
	expect(t, upd, http.StatusOK)
	if got := upd.object(t)["configuration"]; got != stored+"\n" {
		t.Errorf("updated pipeline configuration = %q", got)
	}
}

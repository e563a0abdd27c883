package fakeserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// A pipeline's YAML: parsing (cached), the check create and update make, and the command steps a build
// derives from it.

// yamlStep is one command step read from a pipeline's YAML.
type yamlStep struct {
	key                               string
	label, artifactPaths, branches    *string
	command                           string
	agents                            []string
	env                               map[string]string
	timeout, concurrency, parallelism *int
}

// parseYAML decodes a configuration. A lock need not be held.
func parseYAML(config string) (any, error) {
	return yamlDocs.get(config)
}

// yamlCacheSize bounds the parsed configurations kept; pipelines mostly share a few, and every pipeline
// shown (a list page shows 100) needs its steps and env, which would otherwise mean parsing each time.
const yamlCacheSize = 256

// yamlDocs caches parsed configurations. The documents it hands out are shared: callers only read them.
var yamlDocs = &yamlCache{docs: map[string]yamlResult{}}

type yamlResult struct {
	doc any
	err error
}

type yamlCache struct {
	mu   sync.Mutex
	docs map[string]yamlResult
}

// get returns config parsed, parsing it unless it is cached; a full cache starts afresh.
func (c *yamlCache) get(config string) (any, error) {
	c.mu.Lock()
	r, ok := c.docs[config]
	c.mu.Unlock()
	if ok {
		return r.doc, r.err
	}
	err := yaml.Unmarshal([]byte(config), &r.doc)
	r.err = err
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.docs) >= yamlCacheSize {
		clear(c.docs)
	}
	c.docs[config] = r
	return r.doc, r.err
}

// checkYAML returns why config is not a usable pipeline configuration, or "" when it is: it must be YAML
// holding a mapping with a steps list, or a list of steps.
func checkYAML(config string) string {
	doc, err := parseYAML(config)
	if err != nil {
		return "is not valid YAML: " + err.Error()
	}
	switch d := doc.(type) {
	case []any:
		return ""
	case map[string]any:
		steps, ok := d["steps"]
		if !ok {
			return "must have a steps list"
		}
		if _, ok := steps.([]any); !ok && steps != nil {
			return "must have a steps list"
		}
		return ""
	case nil:
		return "can't be blank"
	default:
		return "must be a YAML mapping with a steps list"
	}
}

// yamlSteps reads the command steps of config (groups flattened) and reports whether the top-level steps
// are all command steps. Unparseable YAML has none.
func yamlSteps(config string) (steps []yamlStep, allCommands bool) {
	doc, err := parseYAML(config)
	if err != nil {
		return nil, false
	}
	var list []any
	var defaultAgents []string
	switch d := doc.(type) {
	case []any:
		list = d
	case map[string]any:
		list, _ = d["steps"].([]any)
		defaultAgents = agentRules(d["agents"])
	}
	allCommands = true
	var walk func(items []any, top bool)
	walk = func(items []any, top bool) {
		for _, item := range items {
			m, ok := item.(map[string]any)
			if !ok { // "wait", "block" and the like
				allCommands = allCommands && !top
				continue
			}
			if inner, ok := m["steps"].([]any); ok && m["command"] == nil && m["commands"] == nil { // a group
				allCommands = allCommands && !top
				walk(inner, false)
				continue
			}
			cmd, isCommand := yamlCommand(m)
			if !isCommand {
				allCommands = allCommands && !top
				continue
			}
			s := yamlStep{
				key: firstString(m, "key", "identifier", "id"), command: cmd,
				label: yamlStringPtr(m, "label", "name"), artifactPaths: yamlArtifactPaths(m["artifact_paths"]),
				branches: yamlStringPtr(m, "branches"), env: yamlEnv(m["env"]),
				timeout: yamlInt(m["timeout_in_minutes"]), concurrency: yamlInt(m["concurrency"]),
				parallelism: yamlInt(m["parallelism"]), agents: agentRules(m["agents"]),
			}
			if s.agents == nil {
				s.agents = slices.Clone(defaultAgents)
			}
			steps = append(steps, s)
		}
	}
	walk(list, true)
	return steps, allCommands
}

// yamlCommand returns a step's command (a list of commands joined by newlines) and whether it has one.
func yamlCommand(m map[string]any) (string, bool) {
	for _, k := range []string{"command", "commands"} {
		switch c := m[k].(type) {
		case string:
			return c, true
		case []any:
			lines := make([]string, 0, len(c))
			for _, l := range c {
				lines = append(lines, fmt.Sprint(l))
			}
			return strings.Join(lines, "\n"), true
		}
	}
	return "", false
}

// agentRules turns a YAML agents value into agent query rules: a mapping becomes key=value rules (queue
// first, then by key), a list is taken as written.
func agentRules(v any) []string {
	switch a := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(a))
		out := make([]string, 0, len(keys))
		if q, ok := a["queue"]; ok {
			out = append(out, "queue="+fmt.Sprint(q))
		}
		for _, k := range keys {
			if k != "queue" {
				out = append(out, k+"="+fmt.Sprint(a[k]))
			}
		}
		return out
	case []any:
		out := make([]string, 0, len(a))
		for _, r := range a {
			out = append(out, fmt.Sprint(r))
		}
		return out
	}
	return nil
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}

func yamlStringPtr(m map[string]any, keys ...string) *string {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return stringPtr(fmt.Sprint(v))
		}
	}
	return nil
}

func yamlArtifactPaths(v any) *string {
	switch a := v.(type) {
	case string:
		return stringPtr(a)
	case []any:
		parts := make([]string, 0, len(a))
		for _, p := range a {
			parts = append(parts, fmt.Sprint(p))
		}
		return stringPtr(strings.Join(parts, ";"))
	}
	return nil
}

func yamlEnv(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		out[k] = fmt.Sprint(val)
	}
	return out
}

func yamlInt(v any) *int {
	if n, ok := v.(int); ok {
		return &n
	}
	return nil
}

// yamlTopEnv returns the top-level env of a YAML configuration, or nil.
func yamlTopEnv(config string) map[string]string {
	if config == "" {
		return nil
	}
	doc, err := parseYAML(config)
	if err != nil {
		return nil
	}
	if m, ok := doc.(map[string]any); ok {
		return yamlEnv(m["env"])
	}
	return nil
}

package fakeserver

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Notification services' providers and what a create or update body says
// (https://buildkite.com/docs/apis/rest-api/organizations/notification-services): each provider's settings and
// how they are checked, masked and kept; the handlers that read bodies with them are in
// notification_services.go.

// ---- providers ----

// Notification service providers.
const (
	nsWebhook        = "webhook"
	nsSlack          = "slack"
	nsEventBridge    = "aws_event_bridge"
	nsDatadog        = "datadog_pipeline_visibility"
	nsOpenTelemetry  = "open_telemetry_tracing"
	nsEventLog       = "event_log_api"
	nsSlackWorkspace = "slack_workspace"
	nsLinear         = "linear"
)

// nsProvider describes one provider: its display name, GraphQL type, whether REST may create it and
// whether it needs the Enterprise plan, and its settings.
type nsProvider struct {
	name, graphQLType string
	creatable         bool
	enterprise        bool
	settings          map[string]nsSetting
}

// nsSetting is one settings key: its kind, whether a create needs it, whether it is fixed at create, how the
// answer shows it, and its default.
type nsSetting struct {
	kind       string // "string", "bool", "int", "strings", "map"
	required   bool
	createOnly bool
	shown      string // "plain", "masked", "hidden", "readonly"
	def        any
	check      func(v any) string // a problem with a given value, or ""
}

var (
	awsRegionPattern    = regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-[0-9]$`)
	awsAccountIDPattern = regexp.MustCompile(`^[0-9]{12}$`)
)

func httpURLProblem(v any) string {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an http or https URL"
	}
	return ""
}

func oneOfProblem(values ...string) func(any) string {
	return func(v any) string {
		s, _ := v.(string)
		if !slices.Contains(values, s) {
			return "must be one of " + strings.Join(values, ", ")
		}
		return ""
	}
}

// nsWebhookNewestVersion is the newest webhook payload version; a version can only move up to it.
const nsWebhookNewestVersion = 3

var nsProviders = map[string]nsProvider{
	nsWebhook: {name: "Webhook", graphQLType: "NotificationServiceWebhook", creatable: true, settings: map[string]nsSetting{
		"url":        {kind: "string", required: true, shown: "plain", check: httpURLProblem},
		"token":      {kind: "string", shown: "plain"},
		"token_mode": {kind: "string", shown: "plain", def: "token", check: oneOfProblem("token", "signature")},
		"version": {kind: "int", shown: "plain", def: nsWebhookNewestVersion, check: func(v any) string {
			if n, _ := v.(int); n < 1 || n > nsWebhookNewestVersion {
				return fmt.Sprintf("must be between 1 and %d", nsWebhookNewestVersion)
			}
			return ""
		}},
		"events":     {kind: "strings", shown: "plain", def: []any{"build.finished"}},
		"tls_verify": {kind: "bool", shown: "plain", def: true},
	}},
	nsSlack: {name: "Slack", graphQLType: "NotificationServiceSlack", creatable: true, settings: map[string]nsSetting{
		"url":   {kind: "string", required: true, shown: "hidden", check: httpURLProblem},
		"theme": {kind: "string", shown: "plain", def: "text", check: oneOfProblem("text", "emoji")},
	}},
	nsEventBridge: {name: "Amazon EventBridge", graphQLType: "NotificationServiceAmazonEventBridge", creatable: true, enterprise: true, settings: map[string]nsSetting{
		"aws_region": {kind: "string", required: true, createOnly: true, shown: "plain", check: func(v any) string {
			if s, _ := v.(string); !awsRegionPattern.MatchString(s) {
				return "must be an AWS region such as us-east-1"
			}
			return ""
		}},
		"aws_account_id": {kind: "string", required: true, createOnly: true, shown: "masked", check: func(v any) string {
			if s, _ := v.(string); !awsAccountIDPattern.MatchString(s) {
				return "must be a 12-digit AWS account ID"
			}
			return ""
		}},
		"include_build_meta_data": {kind: "string", shown: "plain"},
		"event_source_name":       {kind: "string", shown: "readonly"},
	}},
	nsDatadog: {name: "Datadog Pipeline Visibility", graphQLType: "NotificationServiceDatadogPipelineVisibility", creatable: true, enterprise: true, settings: map[string]nsSetting{
		"api_key":      {kind: "string", required: true, shown: "masked"},
		"datadog_site": {kind: "string", shown: "plain", def: "datadoghq.com"},
		"datadog_tags": {kind: "string", shown: "plain"},
	}},
	nsOpenTelemetry: {name: "OpenTelemetry Tracing", graphQLType: "NotificationServiceOpenTelemetryTracing", creatable: true, enterprise: true, settings: map[string]nsSetting{
		"endpoint":            {kind: "string", required: true, shown: "plain", check: httpURLProblem},
		"service_name":        {kind: "string", shown: "plain", def: "buildkite"},
		"headers":             {kind: "map", shown: "hidden"},
		"resource_attributes": {kind: "map", shown: "plain", def: map[string]any{}},
		"tracestate":          {kind: "map", shown: "plain", def: map[string]any{}},
	}},
	nsEventLog:       {name: "Event Log API", graphQLType: "NotificationServiceEventLogApi", settings: map[string]nsSetting{"events": {kind: "strings", shown: "plain", def: []any{}}}},
	nsSlackWorkspace: {name: "Slack Workspace", graphQLType: "NotificationServiceSlackWorkspace", settings: map[string]nsSetting{}},
	nsLinear:         {name: "Linear", graphQLType: "NotificationServiceLinear", settings: map[string]nsSetting{}},
}

// nsScopes are the scopes a service may have; each but "all" names the kind of its scope_uuids.
var nsScopes = []string{"all", "some_projects", "some_teams", "some_clusters"}

// nsBuildStates are the build_states flags.
var nsBuildStates = []string{"build_passed", "build_fixed", "build_failed", "build_blocked", "build_canceled", "build_failing", "job_activated"}

// ---- request bodies ----

// nsInput is what a create or update body says.
type nsInput struct {
	provider, description, branch, scope opt[string]
	scopeUUIDs                           opt[[]string]
	buildStates                          opt[map[string]any]
	settings                             opt[map[string]any]
}

func readNSInput(in *jsonObject) (nsInput, validationErrors) {
	n := nsInput{
		provider: in.String("provider"), description: in.String("description"),
		branch: in.String("branch_configuration"), scope: in.String("scope"),
		scopeUUIDs: in.Strings("scope_uuids"), buildStates: in.Object("build_states"), settings: in.Object("settings"),
	}
	problems := in.Problems()
	known := []string{"provider", "description", "branch_configuration", "scope", "scope_uuids", "build_states", "settings"}
	for k := range in.raw {
		if !slices.Contains(known, k) {
			problems.add(k, "is not a known field")
		}
	}
	if n.scope.Given() && !slices.Contains(nsScopes, n.scope.Value) {
		problems.add("scope", "must be one of "+strings.Join(nsScopes, ", "))
	}
	for k, v := range n.buildStates.Value {
		if !slices.Contains(nsBuildStates, k) {
			problems.add("build_states", k+" is not a build state")
		} else if _, ok := v.(bool); !ok {
			problems.add("build_states", k+" must be a boolean")
		}
	}
	return n, problems
}

// settingValue converts a decoded JSON value to the setting's kind; ok is false when it is not of it.
func settingValue(s nsSetting, v any) (any, bool) {
	switch s.kind {
	case "string":
		_, ok := v.(string)
		return v, ok
	case "bool":
		_, ok := v.(bool)
		return v, ok
	case "int":
		f, ok := v.(float64)
		if !ok || f != float64(int(f)) {
			return nil, false
		}
		return int(f), true
	case "strings":
		l, ok := v.([]any)
		for _, e := range l {
			if _, isString := e.(string); !isString {
				return nil, false
			}
		}
		return l, ok
	case "map":
		m, ok := v.(map[string]any)
		for _, e := range m {
			if _, isString := e.(string); !isString {
				return nil, false
			}
		}
		return m, ok
	}
	return nil, false
}

// applySettings checks the settings of a body against the provider and applies them to cur (the service's
// settings, changed in place only when there is no problem). create says whether this is a create.
func applySettings(p nsProvider, cur map[string]any, given map[string]any, create bool, problems *validationErrors) {
	next := maps.Clone(cur)
	for k, raw := range given {
		s, ok := p.settings[k]
		if !ok {
			problems.add("settings", k+" is not a setting of this provider")
			continue
		}
		if s.shown == "readonly" {
			problems.add("settings", k+" is read-only")
			continue
		}
		if raw == nil {
			if s.required || s.createOnly {
				problems.add("settings", k+" can't be blank")
				continue
			}
			if s.def != nil {
				next[k] = s.def
			} else {
				delete(next, k)
			}
			continue
		}
		v, ok := settingValue(s, raw)
		if !ok {
			problems.add("settings", k+" must be a "+s.kind)
			continue
		}
		old, had := cur[k]
		// A masked secret sent back unchanged keeps the secret.
		if s.shown == "masked" && had && v == maskSecret(fmt.Sprint(old)) {
			continue
		}
		if s.check != nil {
			if msg := s.check(v); msg != "" {
				problems.add("settings", k+" "+msg)
				continue
			}
		}
		if !create && s.createOnly && had && fmt.Sprint(old) != fmt.Sprint(v) {
			problems.add("settings", k+" cannot be changed")
			continue
		}
		if !create && k == "version" && had && asInt(v) < asInt(old) {
			problems.add("settings", fmt.Sprintf("version can only move up (it is %d)", asInt(old)))
			continue
		}
		next[k] = v
	}
	if create {
		for k, s := range p.settings {
			if _, ok := next[k]; !ok && s.def != nil {
				next[k] = s.def
			}
			if _, ok := next[k]; !ok && s.required && given[k] == nil {
				problems.add("settings", k+" can't be blank")
			}
		}
	}
	if len(*problems) == 0 {
		clear(cur)
		maps.Copy(cur, next)
	}
}

// checkScopeUUIDs records a problem for each UUID that names no object of the scope's kind in org.
func (st *Store) checkScopeUUIDs(org, scope string, ids []string, problems *validationErrors) {
	if scope == "all" {
		if len(ids) > 0 {
			problems.add("scope_uuids", "must be empty when scope is all")
		}
		return
	}
	for _, id := range ids {
		var found bool
		switch scope {
		case "some_projects":
			found = st.pipelineByID(org, id) != nil
		case "some_teams":
			found = st.teamByID(org, id) != nil
		case "some_clusters":
			found = st.cluster(org, id) != nil
		}
		if !found {
			problems.add("scope_uuids", id+" is not a "+strings.TrimPrefix(strings.TrimSuffix(scope, "s"), "some_")+" of the organization")
		}
	}
}

func lowerAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.ToLower(id)
	}
	return out
}

// asInt reads a number held in settings: an int as set, a float64 once the state file has loaded it.
func asInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	case int64:
		return int(n)
	}
	return 0
}

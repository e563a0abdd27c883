package fakeserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Organization pipeline settings (https://buildkite.com/docs/apis/rest-api/organizations/pipeline-settings):
// GET and PATCH /v2/organizations/{org}/pipeline-settings, PUT and DELETE of its switches (hosted-agents-ssh,
// public-pipelines), PUT of advanced-queue-metrics (one-way: no DELETE) and PUT and DELETE of
// build-export. Administrators only, with read_organization_settings or write_organization_settings; every
// success answers 200 with the whole resource.
//
// Choices where the facts are silent: an organization starts with default_branch "main", no default
// cluster, no timeouts and no expiry, every switch off and build export available but not configured; the
// timeouts must be at least 0 and the expiry within 60..43200 (the official provider's ranges), null clears
// them; a PATCH names only known fields (another is a 422, so a client's typo is not silently dropped); a
// default cluster deleted later reads as null; a bucket whose name starts with "unreachable" is one
// Buildkite cannot reach (422). Store.SetBuildExportAvailable takes build export out of the plan (403).

// pipelineSettingsState is this area's part of the Store: each organization's settings that have changed,
// by slug (an organization without a record has the defaults).
type pipelineSettingsState struct {
	byOrg map[string]*pipelineSettingsRecord
}

func newPipelineSettingsState() pipelineSettingsState {
	return pipelineSettingsState{byOrg: map[string]*pipelineSettingsRecord{}}
}

type pipelineSettingsRecord struct {
	defaultBranch                      string
	defaultClusterID                   string // "" for none
	defaultTimeout, maxTimeout, expiry *int   // nil for none
	terminalAccess, publicPipelines    settingSwitch
	queueMetrics                       settingSwitch
	exportUnavailable                  bool // the plan lacks build export
	exportLocation, exportStrategy     string
}

// settingSwitch is one of the settings turned on and off by PUT and DELETE.
type settingSwitch struct {
	enabled   bool
	enabledAt time.Time
	enabledBy string // user id
}

// buildExportStrategies are the strategy_id values build export supports.
var buildExportStrategies = []string{"s3", "gcs"}

func defaultPipelineSettings() pipelineSettingsRecord {
	return pipelineSettingsRecord{defaultBranch: "main"}
}

// pipelineSettings returns org's settings, made on first use. The write lock must be held.
func (st *Store) pipelineSettings(org string) *pipelineSettingsRecord {
	rec, ok := st.pipeSettings.byOrg[org]
	if !ok {
		d := defaultPipelineSettings()
		rec = &d
		st.pipeSettings.byOrg[org] = rec
	}
	return rec
}

// pipelineSettingsOrDefault returns org's settings, or the defaults, without making a record. A lock must be held.
func (st *Store) pipelineSettingsOrDefault(org string) pipelineSettingsRecord {
	if rec, ok := st.pipeSettings.byOrg[org]; ok {
		return *rec
	}
	return defaultPipelineSettings()
}

// SetBuildExportAvailable sets whether org's plan has build export (without it, the build-export routes
// answer 403).
func (st *Store) SetBuildExportAvailable(org string, available bool) {
	defer st.edit()()
	st.pipelineSettings(org).exportUnavailable = !available
}

// PipelineSettings returns org's default branch, default cluster ("" for none), whether public pipeline
// creation and hosted-agent remote access are on, and the build export's bucket ("" for none), for tests.
func (st *Store) PipelineSettings(org string) (branch, cluster string, public, terminal bool, exportLocation string) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	rec := st.pipelineSettingsOrDefault(org)
	return rec.defaultBranch, rec.defaultClusterID, rec.publicPipelines.enabled, rec.terminalAccess.enabled, rec.exportLocation
}

type switchView struct {
	Enabled   bool     `json:"enabled"`
	EnabledAt *string  `json:"enabled_at"`
	EnabledBy *enabler `json:"enabled_by"`
	Disable   *bool    `json:"disable_supported,omitempty"`
}

type enabler struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type buildExportView struct {
	Available  bool     `json:"available"`
	Enabled    bool     `json:"enabled"`
	Location   *string  `json:"location"`
	StrategyID *string  `json:"strategy_id"`
	Supported  []string `json:"supported_strategies"`
}

type pipelineSettingsView struct {
	URL                 string          `json:"url"`
	DefaultBranch       string          `json:"default_branch"`
	DefaultClusterID    *string         `json:"default_cluster_id"`
	DefaultTimeout      *int            `json:"default_timeout_in_minutes"`
	MaxTimeout          *int            `json:"maximum_timeout_in_minutes"`
	Expiry              *int            `json:"scheduled_job_expiry_in_minutes"`
	TerminalAccess      switchView      `json:"hosted_agents_terminal_access"`
	PublicPipelines     switchView      `json:"public_pipeline_creation"`
	AdvancedQueueMetric switchView      `json:"advanced_queue_metrics"`
	BuildExports        buildExportView `json:"build_exports"`
}

func (st *Store) switchViewOf(s settingSwitch) switchView {
	v := switchView{Enabled: s.enabled}
	if s.enabled {
		v.EnabledAt = formatTimePtr(s.enabledAt)
		if u, ok := st.users[s.enabledBy]; ok {
			v.EnabledBy = &enabler{ID: u.id, Name: u.name}
		}
	}
	return v
}

// pipelineSettingsView renders org's settings. A lock must be held.
func (st *Store) pipelineSettingsView(base, org string) pipelineSettingsView {
	rec := st.pipelineSettingsOrDefault(org)
	v := pipelineSettingsView{
		URL: apiURL(base, "organizations", org, "pipeline-settings"), DefaultBranch: rec.defaultBranch,
		DefaultTimeout: rec.defaultTimeout, MaxTimeout: rec.maxTimeout, Expiry: rec.expiry,
		TerminalAccess: st.switchViewOf(rec.terminalAccess), PublicPipelines: st.switchViewOf(rec.publicPipelines),
		AdvancedQueueMetric: st.switchViewOf(rec.queueMetrics),
		BuildExports: buildExportView{
			Available: !rec.exportUnavailable, Enabled: rec.exportLocation != "",
			Supported: slices.Clone(buildExportStrategies),
		},
	}
	never := false
	v.AdvancedQueueMetric.Disable = &never
	if rec.defaultClusterID != "" && st.cluster(org, rec.defaultClusterID) != nil {
		v.DefaultClusterID = stringPtr(rec.defaultClusterID)
	}
	if rec.exportLocation != "" {
		v.BuildExports.Location, v.BuildExports.StrategyID = stringPtr(rec.exportLocation), stringPtr(rec.exportStrategy)
	}
	return v
}

func (s *Server) routePipelineSettings(mux *routeMux) {
	const settings = "/v2/organizations/{org}/pipeline-settings"
	mux.HandleFunc("GET "+settings, s.getPipelineSettings)
	mux.HandleFunc("PATCH "+settings, s.patchPipelineSettings)
	for _, sw := range []struct {
		path   string
		pick   func(*pipelineSettingsRecord) *settingSwitch
		oneWay bool
	}{
		{"hosted-agents-ssh", func(r *pipelineSettingsRecord) *settingSwitch { return &r.terminalAccess }, false},
		{"public-pipelines", func(r *pipelineSettingsRecord) *settingSwitch { return &r.publicPipelines }, false},
		{"advanced-queue-metrics", func(r *pipelineSettingsRecord) *settingSwitch { return &r.queueMetrics }, true},
	} {
		mux.HandleFunc("PUT "+settings+"/"+sw.path, s.setPipelineSetting(sw.pick, true))
		if !sw.oneWay {
			mux.HandleFunc("DELETE "+settings+"/"+sw.path, s.setPipelineSetting(sw.pick, false))
		}
	}
	mux.HandleFunc("PUT "+settings+"/build-export", s.putBuildExport)
	mux.HandleFunc("DELETE "+settings+"/build-export", s.deleteBuildExport)
}

// servePipelineSettings authorizes an administrator with write_organization_settings and answers 200 with
// the whole resource after change has run under the write lock.
func (s *Server) servePipelineSettings(w http.ResponseWriter, r *http.Request,
	change func(org orgRecord, user userRecord, rec *pipelineSettingsRecord) *apiError) {
	s.serveAct(w, r, scopeWriteOrganizationSettings, http.StatusOK, func(org orgRecord, user userRecord) (any, *apiError) {
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errNotAdministrator()
		}
		if err := change(org, user, s.store.pipelineSettings(org.slug)); err != nil {
			return nil, err
		}
		return s.store.pipelineSettingsView(baseURL(r), org.slug), nil
	})
}

func (s *Server) getPipelineSettings(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizationSettings, func(org orgRecord, user userRecord) (any, *apiError) {
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errNotAdministrator()
		}
		return s.store.pipelineSettingsView(baseURL(r), org.slug), nil
	})
}

// pipelineSettingsFields are the fields a PATCH may name.
var pipelineSettingsFields = []string{"default_branch", "default_cluster_id", "default_timeout_in_minutes",
	"maximum_timeout_in_minutes", "scheduled_job_expiry_in_minutes"}

// patchPipelineSettings changes the fields sent, after checking all of them.
func (s *Server) patchPipelineSettings(w http.ResponseWriter, r *http.Request) {
	in, bad := parseObject(r.Body) // a bad body is answered after the token and the caller's role are checked
	s.servePipelineSettings(w, r, func(org orgRecord, _ userRecord, rec *pipelineSettingsRecord) *apiError {
		if bad != nil {
			return bad
		}
		branch, cluster := in.String("default_branch"), in.String("default_cluster_id")
		ints := map[string]opt[int]{}
		for _, f := range pipelineSettingsFields[2:] {
			ints[f] = in.Int(f)
		}
		problems := in.Problems()
		for k := range in.raw {
			if !slices.Contains(pipelineSettingsFields, k) {
				problems.add(k, "is not a known field")
			}
		}
		if branch.Set && strings.TrimSpace(branch.Value) == "" {
			problems.addBlank("default_branch")
		}
		if cluster.Given() && cluster.Value != "" {
			if _, err := uuid.Parse(cluster.Value); err != nil {
				problems.add("default_cluster_id", "is not a valid UUID")
			} else if s.store.cluster(org.slug, strings.ToLower(cluster.Value)) == nil {
				problems.add("default_cluster_id", "must be a cluster of this organization")
			}
		}
		for f, v := range ints {
			switch {
			case !v.Given():
			case f == "scheduled_job_expiry_in_minutes" && (v.Value < 60 || v.Value > 43200):
				problems.add(f, "must be between 60 and 43200")
			case v.Value < 0:
				problems.add(f, "must be greater than or equal to 0")
			}
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		if branch.Given() {
			rec.defaultBranch = branch.Value
		}
		if cluster.Set {
			rec.defaultClusterID = strings.ToLower(cluster.Value)
		}
		for f, v := range ints {
			if !v.Set {
				continue
			}
			var p *int
			if !v.Null {
				n := v.Value
				p = &n
			}
			switch f {
			case "default_timeout_in_minutes":
				rec.defaultTimeout = p
			case "maximum_timeout_in_minutes":
				rec.maxTimeout = p
			default:
				rec.expiry = p
			}
		}
		return nil
	})
}

// setPipelineSetting turns a switch on (PUT) or off (DELETE); turning it on again keeps when and by whom.
func (s *Server) setPipelineSetting(pick func(*pipelineSettingsRecord) *settingSwitch, on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.servePipelineSettings(w, r, func(_ orgRecord, user userRecord, rec *pipelineSettingsRecord) *apiError {
			sw := pick(rec)
			switch {
			case on && !sw.enabled:
				*sw = settingSwitch{enabled: true, enabledAt: s.store.timestamp(), enabledBy: user.id}
			case !on:
				*sw = settingSwitch{}
			}
			return nil
		})
	}
}

// errNoBuildExport: the organization's plan lacks build export (403).
func errNoBuildExport() *apiError {
	return newMessageError(http.StatusForbidden, "Build export is not available on this organization's plan")
}

// putBuildExport configures build export: {"location": "<bucket>", "strategy_id": "s3"|"gcs"}; a location
// with a scheme is stored as the bare bucket.
func (s *Server) putBuildExport(w http.ResponseWriter, r *http.Request) {
	in, bad := parseObject(r.Body) // a bad body is answered after the token and the caller's role are checked
	s.servePipelineSettings(w, r, func(_ orgRecord, _ userRecord, rec *pipelineSettingsRecord) *apiError {
		if bad != nil {
			return bad
		}
		if rec.exportUnavailable {
			return errNoBuildExport()
		}
		location, strategy := in.String("location"), in.String("strategy_id")
		problems := in.Problems()
		if _, bucket, found := strings.Cut(location.Value, "://"); found {
			location.Value = bucket
		}
		location.Value = strings.TrimRight(location.Value, "/")
		switch {
		case strings.TrimSpace(location.Value) == "":
			problems.addBlank("location")
		case strings.HasPrefix(location.Value, "unreachable"):
			problems.add("location", "could not be reached by Buildkite: check the bucket's name and policy")
		}
		switch {
		case !strategy.Given():
			problems.addBlank("strategy_id")
		case !slices.Contains(buildExportStrategies, strategy.Value):
			problems.add("strategy_id", "is not a supported strategy (supported: "+strings.Join(buildExportStrategies, ", ")+")")
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		rec.exportLocation, rec.exportStrategy = location.Value, strategy.Value
		return nil
	})
}

func (s *Server) deleteBuildExport(w http.ResponseWriter, r *http.Request) {
	s.servePipelineSettings(w, r, func(_ orgRecord, _ userRecord, rec *pipelineSettingsRecord) *apiError {
		if rec.exportUnavailable {
			return errNoBuildExport()
		}
		rec.exportLocation, rec.exportStrategy = "", ""
		return nil
	})
}

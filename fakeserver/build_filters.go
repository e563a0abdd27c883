package fakeserver

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The filters of the build lists (https://buildkite.com/docs/apis/rest-api/builds).

// buildFilter is the query of the three build lists. Empty sets filter nothing.
type buildFilter struct {
	branches, commits, states []string
	createdFrom, createdTo    time.Time
	finishedFrom              time.Time
	creator                   string
	metaData                  map[string]string
	includeRetried            bool
}

// queryValues returns the values of name and name[] (the array form), empty values left out.
func queryValues(q url.Values, name string) []string {
	var out []string
	for _, v := range append(slices.Clone(q[name]), q[name+"[]"]...) {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// parseBuildFilter reads a list's query. Unknown states, times that are not ISO 8601 and booleans that
// are not true/false are a 422 in the pipeline/build form naming the parameter; unknown parameters are
// ignored.
func parseBuildFilter(q url.Values) (buildFilter, validationErrors) {
	var problems validationErrors
	f := buildFilter{
		branches: queryValues(q, "branch"),
		commits:  queryValues(q, "commit"),
		states:   queryValues(q, "state"),
		creator:  q.Get("creator"),
		metaData: map[string]string{},
	}
	for _, s := range f.states {
		if !slices.Contains(buildFilterStates, s) {
			problems.add("state", fmt.Sprintf("%q is not a build state (one of %s)", s, strings.Join(buildFilterStates, ", ")))
		}
	}
	for name, dst := range map[string]*time.Time{
		"created_from": &f.createdFrom, "created_to": &f.createdTo, "finished_from": &f.finishedFrom,
	} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		t, ok := parseQueryTime(v)
		if !ok {
			problems.add(name, fmt.Sprintf("%q is not an ISO 8601 time", v))
		}
		*dst = t
	}
	f.includeRetried = parseQueryBool(q, "include_retried_jobs", &problems)
	for key, values := range q {
		k, ok := strings.CutPrefix(key, "meta_data[")
		if !ok || !strings.HasSuffix(k, "]") || len(values) == 0 {
			continue
		}
		f.metaData[strings.TrimSuffix(k, "]")] = values[0]
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].field < problems[j].field })
	return f, problems
}

// parseQueryBool reads a boolean query parameter: absent or empty is false.
func parseQueryBool(q url.Values, name string, problems *validationErrors) bool {
	v := q.Get(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		problems.add(name, "must be true or false")
	}
	return b
}

// parseQueryTime parses an ISO 8601 time: RFC 3339 with or without fractions, a local time (taken as
// UTC) or a date. A "+" of an offset that reached the server as a space (an unescaped query) is restored.
func parseQueryTime(v string) (time.Time, bool) {
	for _, s := range []string{v, restorePlus(v)} {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

func restorePlus(v string) string {
	if i := strings.LastIndexByte(v, ' '); i > 0 {
		return v[:i] + "+" + v[i+1:]
	}
	return v
}

// matches reports whether b passes every filter.
func (f buildFilter) matches(b *buildRecord) bool {
	if len(f.branches) > 0 && !slices.Contains(f.branches, b.branch) {
		return false
	}
	if len(f.commits) > 0 && !slices.Contains(f.commits, b.commit) { // full ids only: no prefix match
		return false
	}
	if len(f.states) > 0 && !slices.ContainsFunc(f.states, func(s string) bool { return stateMatches(b, s) }) {
		return false
	}
	if !f.createdFrom.IsZero() && b.createdAt.Before(f.createdFrom) {
		return false
	}
	if !f.createdTo.IsZero() && !b.createdAt.Before(f.createdTo) {
		return false
	}
	if !f.finishedFrom.IsZero() && (b.finishedAt.IsZero() || b.finishedAt.Before(f.finishedFrom)) {
		return false
	}
	if f.creator != "" && b.creatorID != f.creator {
		return false
	}
	for k, v := range f.metaData {
		if got, ok := b.metaData[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// stateMatches applies one state filter value: blocked is the flag, finished the shortcut for passed, failed,
// blocked and canceled.
func stateMatches(b *buildRecord, state string) bool {
	switch state {
	case buildBlocked:
		return b.blocked
	case buildFinished:
		return slices.ContainsFunc(finishedFilter, func(s string) bool { return stateMatches(b, s) })
	default:
		return b.state == state
	}
}

package fakeserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	// Time-zone names in cronlines are looked up in the tz database embedded here, so the emulator
	// answers the same on a machine without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// Cronlines of pipeline schedules (https://buildkite.com/docs/apis/rest-api/pipeline-schedules): what the
// emulator accepts and when a cronline next fires, for a schedule's next_build_at. The service accepts five
// crontab fields (minute, hour, day of month, month, day of week) with an optional IANA time-zone name after
// them ("0 3 * * 1-5 Europe/Berlin"; UTC without one), or one of the names below. Each field is "*" or a
// comma-separated list of values, ranges "a-b" and steps "*/n", "a-b/n" or "a/n"; months and days of the week
// also take their three-letter English names, and day of week 7 is Sunday as 0 is. As in Vixie cron, when
// neither day field starts with "*" a day matches either of them; otherwise it must match both.

// cronNames are the named cronlines and the fields each stands for.
var cronNames = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
	"@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

// cronField describes one crontab field: its name in errors, its range and its value names (index = value).
type cronField struct {
	name     string
	min, max int
	names    []string
}

var cronFields = [5]cronField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day of month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: []string{"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}},
	{name: "day of week", min: 0, max: 7, names: []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}},
}

// cronSchedule is a parsed cronline: the values each field matches, as bit sets, and the time zone.
type cronSchedule struct {
	fields [5]uint64
	// domAny and dowAny: the day field starts with "*", so the other day field alone decides.
	domAny, dowAny bool
	loc            *time.Location
}

// parseCronline parses a cronline, or says what is wrong with it.
func parseCronline(line string) (*cronSchedule, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return nil, fmt.Errorf("is empty")
	}
	if strings.HasPrefix(words[0], "@") {
		expanded, ok := cronNames[strings.ToLower(words[0])]
		switch {
		case !ok:
			return nil, fmt.Errorf("%q is not one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly", words[0])
		case len(words) > 1:
			return nil, fmt.Errorf("%s takes nothing after it", words[0])
		}
		words = strings.Fields(expanded)
	}
	if len(words) < 5 || len(words) > 6 {
		return nil, fmt.Errorf("has %d fields; want minute, hour, day of month, month and day of week, then optionally a time zone", len(words))
	}
	c := &cronSchedule{loc: time.UTC}
	for i, f := range cronFields {
		bits, err := f.parse(words[i])
		if err != nil {
			return nil, fmt.Errorf("%s field %q: %w", f.name, words[i], err)
		}
		c.fields[i] = bits
	}
	c.domAny, c.dowAny = strings.HasPrefix(words[2], "*"), strings.HasPrefix(words[4], "*")
	if c.fields[4]&(1<<7) != 0 { // 7 is Sunday
		c.fields[4] |= 1
	}
	if len(words) == 6 {
		loc, err := time.LoadLocation(words[5])
		if err != nil || words[5] == "Local" {
			return nil, fmt.Errorf("%q is not a time zone of the IANA database (such as Europe/Berlin or UTC)", words[5])
		}
		c.loc = loc
	}
	return c, nil
}

// parse returns the set of values a field's text matches.
func (f cronField) parse(text string) (uint64, error) {
	var bits uint64
	for _, item := range strings.Split(text, ",") {
		rng, stepText, hasStep := strings.Cut(item, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 {
				return 0, fmt.Errorf("step %q is not a whole number of 1 or more", stepText)
			}
			step = n
		}
		lo, hi := f.min, f.max
		if rng != "*" {
			first, last, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = f.value(first); err != nil {
				return 0, err
			}
			hi = lo
			switch {
			case isRange:
				if hi, err = f.value(last); err != nil {
					return 0, err
				}
				if hi < lo {
					return 0, fmt.Errorf("range %s ends before it starts", rng)
				}
			case hasStep: // "a/n" runs from a to the end of the field
				hi = f.max
			}
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << v
		}
	}
	return bits, nil
}

// value reads one value of the field: a number in its range or one of its names.
func (f cronField) value(text string) (int, error) {
	for v, name := range f.names {
		if name != "" && strings.EqualFold(text, name) {
			return v, nil
		}
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", text)
	}
	if n < f.min || n > f.max {
		return 0, fmt.Errorf("%d is out of range %d-%d", n, f.min, f.max)
	}
	return n, nil
}

func (c *cronSchedule) has(field, v int) bool { return c.fields[field]&(1<<v) != 0 }

// dayMatches applies cron's rule for the two day fields.
func (c *cronSchedule) dayMatches(d time.Time) bool {
	dom, dow := c.has(2, d.Day()), c.has(4, int(d.Weekday()))
	if c.domAny || c.dowAny {
		return dom && dow
	}
	return dom || dow
}

// cronHorizon bounds the search for the next time: a cronline that matches no day within it (the 30th of
// February) never fires.
const cronHorizon = 5 * 366

// next returns the first time after after at which the cronline fires, and false when it never does.
// Wall-clock times a daylight-saving change skips are skipped too.
func (c *cronSchedule) next(after time.Time) (time.Time, bool) {
	start := after.In(c.loc).Truncate(time.Minute).Add(time.Minute)
	y, m, d := start.Date()
	for day := 0; day < cronHorizon; day++ {
		date := time.Date(y, m, d+day, 12, 0, 0, 0, c.loc)
		if !c.has(3, int(date.Month())) || !c.dayMatches(date) {
			continue
		}
		for h := 0; h < 24; h++ {
			if !c.has(1, h) {
				continue
			}
			for mi := 0; mi < 60; mi++ {
				if !c.has(0, mi) {
					continue
				}
				at := time.Date(date.Year(), date.Month(), date.Day(), h, mi, 0, 0, c.loc)
				if at.Hour() == h && at.Minute() == mi && !at.Before(start) {
					return at, true
				}
			}
		}
	}
	return time.Time{}, false
}

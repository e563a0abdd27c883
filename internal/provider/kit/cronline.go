package kit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	// Time-zone names in cronlines are checked against the tz database embedded here, so a plan says the
	// same on a machine without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// Cronlines of pipeline schedules, checked at plan time for what the service accepts: five crontab fields
// (minute, hour, day of month, month, day of week) with an optional IANA time-zone name after them, or one
// of the names @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly alone. A field is "*"
// or a comma-separated list of values, ranges "a-b" and steps "*/n", "a-b/n" or "a/n"; months and days of
// the week also take their three-letter English names, and day of week 7 is Sunday. Only the syntax is
// checked: when a cronline fires is the service's business.

// cronlineNames are the named cronlines.
var cronlineNames = []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

// cronlineField is one crontab field: its name, its range and the names its values also have.
type cronlineField struct {
	name     string
	min, max int
	names    []string // names[i] is value min+i
}

var cronlineFields = [5]cronlineField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day of month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	{name: "day of week", min: 0, max: 7, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}

// CheckCronline returns what is wrong with a cronline, or nil.
func CheckCronline(line string) error {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return fmt.Errorf("it is empty")
	case strings.HasPrefix(words[0], "@"):
		if !containsFold(cronlineNames, words[0]) {
			return fmt.Errorf("%q is not one of %s", words[0], strings.Join(cronlineNames, ", "))
		}
		if len(words) > 1 {
			return fmt.Errorf("%s takes no time zone or anything else after it", words[0])
		}
		return nil
	case len(words) < 5 || len(words) > 6:
		return fmt.Errorf("it has %d fields, and five are needed (minute, hour, day of month, month, day of week), then optionally a time zone", len(words))
	}
	for i, f := range cronlineFields {
		if err := f.check(words[i]); err != nil {
			return fmt.Errorf("the %s field %q: %w", f.name, words[i], err)
		}
	}
	if len(words) == 6 {
		if _, err := time.LoadLocation(words[5]); err != nil || words[5] == "Local" {
			return fmt.Errorf("%q is not a time zone of the IANA database, such as Europe/Berlin or UTC", words[5])
		}
	}
	return nil
}

// check returns what is wrong with one field's text.
func (f cronlineField) check(text string) error {
	for _, item := range strings.Split(text, ",") {
		span, step, stepped := strings.Cut(item, "/")
		if n, err := strconv.Atoi(step); stepped && (err != nil || n < 1) {
			return fmt.Errorf("the step %q is not a whole number of 1 or more", step)
		}
		if span == "*" {
			continue
		}
		first, last, ranged := strings.Cut(span, "-")
		lo, err := f.value(first)
		if err != nil {
			return err
		}
		if ranged {
			hi, err := f.value(last)
			if err != nil {
				return err
			}
			if hi < lo {
				return fmt.Errorf("the range %s ends before it starts", span)
			}
		}
	}
	return nil
}

// value reads a value of the field: a number in its range, or one of its names.
func (f cronlineField) value(text string) (int, error) {
	for i, name := range f.names {
		if strings.EqualFold(text, name) {
			return f.min + i, nil
		}
	}
	n, err := strconv.Atoi(text)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number or a name of the field", text)
	case n < f.min || n > f.max:
		return 0, fmt.Errorf("%d is outside %d-%d", n, f.min, f.max)
	}
	return n, nil
}

// containsFold reports whether list holds s, compared without regard to case.
func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// CronlineValidator checks a cronline at plan time, naming the attribute and what is wrong.
type CronlineValidator struct{}

var _ validator.String = CronlineValidator{}

func (CronlineValidator) Description(context.Context) string {
	return "must be five crontab fields with an optional time zone (\"0 3 * * 1-5 Europe/Berlin\"), or a name such as @daily"
}

func (v CronlineValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v CronlineValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if err := CheckCronline(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Cronline",
			fmt.Sprintf("%s %q is not a cronline the service accepts: %s. A cronline %s.", req.Path, req.ConfigValue.ValueString(), err, v.Description(ctx)))
	}
}

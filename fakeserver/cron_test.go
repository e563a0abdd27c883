package fakeserver

import (
	"strings"
	"testing"
	"time"
)

func TestParseCronlineRefuses(t *testing.T) {
	for line, want := range map[string]string{
		"":                        "is empty",
		"@sometimes":              `"@sometimes" is not one of`,
		"@daily UTC":              "@daily takes nothing after it",
		"* * * *":                 "has 4 fields",
		"* * * * * UTC extra":     "has 7 fields",
		"60 * * * *":              `minute field "60": 60 is out of range 0-59`,
		"* 24 * * *":              `hour field "24": 24 is out of range 0-23`,
		"* * 0 * *":               `day of month field "0": 0 is out of range 1-31`,
		"* * * 13 *":              `month field "13"`,
		"* * * * 8":               `day of week field "8"`,
		"* * * * mon-sun":         "range mon-sun ends before it starts",
		"*/0 * * * *":             `step "0" is not a whole number of 1 or more`,
		"a * * * *":               `"a" is not a number`,
		"1,,2 * * * *":            `"" is not a number`,
		"0 9 * * * Mars/Olympus":  `"Mars/Olympus" is not a time zone`,
		"0 9 * * * Local":         `"Local" is not a time zone`,
		"0 9 * * * europe/berlin": `"europe/berlin" is not a time zone`,
	} {
		_, err := parseCronline(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseCronline(%q) = %v, want an error containing %q", line, err, want)
		}
	}
}

func TestCronlineNext(t *testing.T) {
	utc := func(s string) time.Time {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	for _, tc := range []struct{ line, after, want string }{
		{"@daily", "2026-01-01T10:00:00Z", "2026-01-02T00:00:00Z"},
		{"@midnight", "2026-01-01T23:59:30Z", "2026-01-02T00:00:00Z"},
		{"@hourly", "2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z"}, // strictly after
		{"@weekly", "2026-01-01T10:00:00Z", "2026-01-04T00:00:00Z"}, // a Thursday; Sunday next
		{"@monthly", "2026-01-31T10:00:00Z", "2026-02-01T00:00:00Z"},
		{"@YEARLY", "2026-06-01T00:00:00Z", "2027-01-01T00:00:00Z"},
		{"*/15 * * * *", "2026-01-01T10:07:00Z", "2026-01-01T10:15:00Z"},
		{"5/20 * * * *", "2026-01-01T10:26:00Z", "2026-01-01T10:45:00Z"},
		{"0 9-17/4 * * *", "2026-01-01T13:00:00Z", "2026-01-01T17:00:00Z"},
		{"30 2 1,15 * *", "2026-01-02T00:00:00Z", "2026-01-15T02:30:00Z"},
		{"0 0 * jan-mar,DEC *", "2026-04-01T00:00:00Z", "2026-12-01T00:00:00Z"},
		{"0 0 * * 7", "2026-01-01T00:00:00Z", "2026-01-04T00:00:00Z"},  // 7 is Sunday
		{"0 0 13 * 5", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"}, // the 13th or a Friday: Friday 2nd
		{"0 0 13 * *", "2026-01-01T00:00:00Z", "2026-01-13T00:00:00Z"}, // any weekday: the 13th only
		// A day field starting with "*" counts as unrestricted, as in Vixie cron: the 1st, 11th, 21st or 31st
		// that is also a Friday.
		{"0 0 */10 * 5", "2026-01-01T00:00:00Z", "2026-05-01T00:00:00Z"},
		{"0 9 * * 1-5 America/New_York", "2026-01-03T12:00:00Z", "2026-01-05T14:00:00Z"},
		{"0 9 * * 1-5 America/New_York", "2026-07-04T12:00:00Z", "2026-07-06T13:00:00Z"}, // summer time
		// 02:30 does not happen in Berlin on 29 March 2026: the next one is the day after.
		{"30 2 * * * Europe/Berlin", "2026-03-28T12:00:00Z", "2026-03-30T00:30:00Z"},
	} {
		c, err := parseCronline(tc.line)
		if err != nil {
			t.Fatalf("parseCronline(%q): %v", tc.line, err)
		}
		got, ok := c.next(utc(tc.after))
		if !ok || !got.Equal(utc(tc.want)) {
			t.Errorf("%q after %s: %s (%t), want %s", tc.line, tc.after, got.UTC().Format(time.RFC3339), ok, tc.want)
		}
	}
	never, err := parseCronline("0 0 30 2 *")
	if err != nil {
		t.Fatal(err)
	}
	if at, ok := never.next(utc("2026-01-01T00:00:00Z")); ok {
		t.Errorf("the 30th of February fires at %s", at)
	}
}

package fakeserver

import "strings"

// normalizeConfiguration stores a pipeline's or template's YAML the way the real service does, and no
// further: a leading byte-order mark is dropped and CRLF and lone CR line endings become LF. Those two are
// what the official provider's issue #853 shows the service changing
// (https://github.com/buildkite/terraform-provider-buildkite/issues/853), and neither
// changes what the YAML means: YAML reads every line break as LF and the mark is not content. Nothing
// else is touched. Trailing spaces and blank lines are left alone because they can be content: the
// spaces ending the last line of a `|` block scalar, and the blank lines a `|+` block keeps; trimming them
// changed the document, and a client comparing meaning then saw a different one (issue 16).
func normalizeConfiguration(config string) string {
	config = strings.TrimPrefix(config, "\ufeff")
	config = strings.ReplaceAll(config, "\r\n", "\n")
	return strings.ReplaceAll(config, "\r", "\n")
}

package fakeserver

import "strings"

// normalizeConfiguration stores a pipeline's or template's YAML the way the real service does (the
// official provider's issue #853 shows it): a leading byte-order mark is dropped, CRLF and lone CR line
// endings become LF, and trailing blank lines and spaces go (a text that ended in a newline keeps one).
// A client that compares the text it sent with the text it reads back therefore sees a difference; a
// client that compares meaning does not.
func normalizeConfiguration(config string) string {
	config = strings.TrimPrefix(config, "\ufeff")
	config = strings.ReplaceAll(config, "\r\n", "\n")
	config = strings.ReplaceAll(config, "\r", "\n")
	trimmed := strings.TrimRight(config, " \t\n")
	if trimmed != config && strings.HasSuffix(config, "\n") && trimmed != "" {
		trimmed += "\n"
	}
	return trimmed
}

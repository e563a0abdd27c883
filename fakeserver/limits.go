package fakeserver

import (
	"fmt"
	"unicode/utf8"
)

// Length limits on what a request may store. Beyond one, a create or update is a 422 in the endpoint's
// validation form ("Validation failed: Name is too long (maximum is 255 characters)", or the
// pipeline/build errors array), before anything is stored.
//
// Buildkite documents one limit: a pipeline slug has at most 100 characters. It does not document the
// size limits of names, descriptions and configurations, so the others are the
// emulator's, chosen to be above anything a real configuration holds and low enough that one list page of
// the largest objects (100 pipelines with the longest description and configuration, rendered with the
// steps derived from it) stays under the 32 MiB the provider's client reads of one answer. Every request
// body is also capped at maxBodyBytes (413 beyond it).
const (
	// pipelineSlugMaxLen is the service's; a derived slug is bounded by its name.
	pipelineSlugMaxLen = 100
	// queueKeyMaxLen is the emulator's (the provider's rule for keys).
	queueKeyMaxLen = 100
	// maxNameLen bounds names, labels and other one-line text (emoji, color), in characters.
	maxNameLen = 255
	// maxDescriptionLen bounds descriptions and notes, in characters.
	maxDescriptionLen = 4096
	// maxConfigurationBytes bounds a configuration: a pipeline's or template's YAML, a visual pipeline's
	// steps as JSON, a registry's OIDC policy (YAML or JSON).
	maxConfigurationBytes = 128 << 10
)

// stringLimits are the string properties whose length the emulator limits, by property name, in
// characters (configuration in bytes, see configurationTooLong). jsonObject.String checks them for every
// body that has them.
var stringLimits = map[string]int{
	"name": maxNameLen, "label": maxNameLen, "application_name": maxNameLen,
	"emoji": maxNameLen, "color": maxNameLen,
	"description": maxDescriptionLen, "note": maxDescriptionLen, "dispatch_paused_note": maxDescriptionLen,
}

// tooLong is the reason a value over limit units is refused.
func tooLong(limit int, unit string) string {
	return fmt.Sprintf("is too long (maximum is %d %s)", limit, unit)
}

// checkStringLimit records a problem when property name has a limit and v is beyond it.
func (o *jsonObject) checkStringLimit(name, v string) {
	if limit, ok := stringLimits[name]; ok && len(v) > limit && utf8.RuneCountInString(v) > limit {
		o.problems.addOnce(name, tooLong(limit, "characters"))
	}
	if name == "configuration" && len(v) > maxConfigurationBytes {
		o.problems.addOnce(name, tooLong(maxConfigurationBytes, "bytes"))
	}
}

// configurationTooLong records a problem when a configuration held in another form (visual steps, an
// OIDC policy) is longer than maxConfigurationBytes.
func configurationTooLong(problems *validationErrors, field string, size int) {
	if size > maxConfigurationBytes {
		problems.addOnce(field, tooLong(maxConfigurationBytes, "bytes"))
	}
}

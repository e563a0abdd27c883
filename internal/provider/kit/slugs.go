package kit

import (
	"fmt"
	"strings"
)

// The slugs the service derives from names: the pipeline resource plans one, and the pipeline_slug function
// gives it to configurations.

// pipelineSlugMaxLen is the longest slug the service accepts (https://buildkite.com/docs/apis/rest-api/pipelines).
const pipelineSlugMaxLen = 100

// pipelineSlug derives a pipeline's slug from its name as the service does (its pipelines API,
// https://buildkite.com/docs/apis/rest-api/pipelines; the emulator's derivation is the reference its test
// compares against): lower case, each run of characters other than ASCII letters and digits one hyphen,
// none leading or trailing. Lowering comes first, as it does there, so a character whose lower case is
// ASCII (the Kelvin sign) counts as a letter.
func PipelineSlug(name string) (string, error) {
	var b strings.Builder
	pendingHyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
			continue
		}
		pendingHyphen = true
	}
	slug := b.String()
	switch {
	case slug == "":
		return "", fmt.Errorf("the name %q has no ASCII letter or digit, so the service cannot derive a slug from it; give the pipeline a name with one, or set its slug", name)
	case len(slug) > pipelineSlugMaxLen:
		return "", fmt.Errorf("the slug derived from the name %q would be %d characters long and the service allows at most %d; give the pipeline a shorter name, or set its slug", name, len(slug), pipelineSlugMaxLen)
	}
	return slug, nil
}

package kit

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The words of the errors users see: "Unable to <Action> <Object>" in Title Case, and a detail that names
// the object and gives the service's own message.

// AddAPIError reports a failed call as "Unable to <Action> <Object>" with the object and the service's message.
// action is a verb such as "create"; object names the kind and, where known, the identifier.
func AddAPIError(diags *diag.Diagnostics, action, kind, ident string, err error) {
	title := fmt.Sprintf("Unable to %s %s", Capitalize(action), titleWords(kind))
	subject := kind
	if ident != "" {
		subject = fmt.Sprintf("%s %s", kind, ident)
	}
	diags.AddError(title, fmt.Sprintf("%s %s: %s", Gerund(action), subject, DescribeError(err)))
}

// NotFoundOrAPIError reports a failed lookup of one object: a 404 as "No <What> Found" naming what was
// asked for, the same words PickOne uses, and anything else as the service's error.
func NotFoundOrAPIError(diags *diag.Diagnostics, err error, what, asked string) {
	if buildkite.IsNotFound(err) {
		diags.AddError("No "+titleWords(what)+" Found", fmt.Sprintf("No %s matches %s (%s).", what, asked, DescribeError(err)))
		return
	}
	AddAPIError(diags, "read", what, asked, err)
}

// DescribeError renders the service's own message and field errors, with what the client added after them
// (attempts, recovery), or the transport error.
func DescribeError(err error) string {
	if errors.Is(err, buildkite.ErrNoGraphQLURL) {
		return graphQLURLMissing
	}
	var apiErr *buildkite.Error
	if !errors.As(err, &apiErr) {
		return err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the service answered %d", apiErr.StatusCode)
	if apiErr.Message != "" {
		fmt.Fprintf(&b, ": %s", apiErr.Message)
	}
	for _, fe := range apiErr.Errors {
		parts := []string{}
		for _, s := range []string{fe.Field, fe.Code, fe.Message} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "; %s", strings.Join(parts, " "))
		}
	}
	// What the client said around the service's answer (how many attempts, and what it then did to find
	// out whether a create acted) is part of the story: without it a create that was retried for minutes
	// reads as a single 500.
	if _, after, ok := strings.Cut(err.Error(), apiErr.Error()); ok && strings.TrimSpace(after) != "" {
		b.WriteString(after)
	}
	if apiErr.StatusCode == http.StatusForbidden && (apiErr.Message == "" || apiErr.Message == "Forbidden") {
		b.WriteString(lockedOutHint)
	}
	return b.String()
}

// lockedOutHint follows a bare 403: besides a missing permission, it is the answer to a call from an
// address outside the organization's API IP allowlist, which locks out every call at once.
const lockedOutHint = " (the token's user lacks a permission, or the address Terraform calls from is outside the " +
	"organization's API IP allowlist, `allowed_api_ip_addresses` of buildkite_organization: then every call is " +
	"refused until an administrator adds the address in the web interface; nothing is removed from state)"

// Capitalize upper-cases the first letter of s: a diagnostic's detail starts with one.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// titleWords capitalizes every word of s, as summaries are written ("Cluster Queue").
func titleWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = Capitalize(w)
	}
	return strings.Join(words, " ")
}

// gerunds gives the "-ing" form of the actions that error details start with.
var gerunds = map[string]string{
	"create": "Creating", "read": "Reading", "update": "Updating", "delete": "Deleting",
	"import": "Importing", "pause": "Pausing", "resume": "Resuming", "set": "Setting", "unset": "Unsetting",
	"list": "Listing", "archive": "Archiving", "unarchive": "Unarchiving",
}

func Gerund(verb string) string {
	if g, ok := gerunds[verb]; ok {
		return g
	}
	return Capitalize(verb)
}

// QuoteList renders items quoted and sorted: "a", "b".
func QuoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	sort.Strings(q)
	return strings.Join(q, ", ")
}

// Plural is the "s" of a count that is not one.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ContactFailure is a first-contact check that failed: the diagnostic's words, and the provider attribute
// that most likely needs changing ("" where none does: the service failed to answer).
type ContactFailure struct {
	Summary, Detail string
	Attribute       string
}

func (f *ContactFailure) Error() string { return f.Summary + ": " + f.Detail }

// AddContactError adds the error of a failed first contact: on the provider attribute it names where
// onProvider (Configure), else as an error of the operation it stopped.
func AddContactError(err error, diags *diag.Diagnostics, onProvider bool) {
	var failed *ContactFailure
	switch {
	case !errors.As(err, &failed):
		diags.AddError("Unable to Reach Buildkite", err.Error())
	case onProvider && failed.Attribute != "":
		diags.AddAttributeError(path.Root(failed.Attribute), failed.Summary, failed.Detail)
	default:
		diags.AddError(failed.Summary, failed.Detail)
	}
}

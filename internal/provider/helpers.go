package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// addAPIError reports a failed call as "Unable to <Action> <Object>" with the object and the service's message.
// action is a verb such as "create"; object names the kind and, where known, the identifier.
func addAPIError(diags *diag.Diagnostics, action, kind, ident string, err error) {
	title := fmt.Sprintf("Unable to %s %s", titleWord(action), titleWords(kind))
	subject := kind
	if ident != "" {
		subject = fmt.Sprintf("%s %s", kind, ident)
	}
	diags.AddError(title, fmt.Sprintf("%s %s: %s", gerund(action), subject, describeError(err)))
}

// describeError renders the service's own message and field errors, with what the client added after them
// (attempts, recovery), or the transport error.
func describeError(err error) string {
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
	return b.String()
}

func titleWord(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func titleWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = titleWord(w)
	}
	return strings.Join(words, " ")
}

// gerunds gives the "-ing" form of the actions that error details start with.
var gerunds = map[string]string{
	"create": "Creating", "read": "Reading", "update": "Updating", "delete": "Deleting",
	"import": "Importing", "pause": "Pausing", "resume": "Resuming", "set": "Setting", "unset": "Unsetting",
	"list": "Listing", "archive": "Archiving", "unarchive": "Unarchiving",
}

func gerund(verb string) string {
	if g, ok := gerunds[verb]; ok {
		return g
	}
	return titleWord(verb)
}

// optionalString maps an API string where "" means unset to a Terraform value that is null when unset,
// so that an attribute left out of the configuration does not show a diff against "".
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// optionalStringPtr is optionalString for fields the service may send as null.
func optionalStringPtr(s *string) types.String {
	if s == nil {
		return types.StringNull()
	}
	return optionalString(*s)
}

// stringPtr returns a pointer to the value, with null sent as "" so that removing an attribute from the
// configuration clears it on the service.
func stringPtr(v types.String) *string {
	s := v.ValueString()
	return &s
}

// stringPtrIfSet returns nil for a null or unknown value, so the field is left out of a create request.
func stringPtrIfSet(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// stringList builds a list of strings.
func stringList(items []string) types.List {
	values := make([]attr.Value, len(items))
	for i, s := range items {
		values[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, values)
}

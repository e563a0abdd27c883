package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// importPart is one "/"-separated part of an import ID.
type importPart struct {
	name string // as shown to the user, "<cluster id>"
	uuid bool   // the part must be a UUID
}

// uuidPart is a part that must be a UUID.
func uuidPart(name string) importPart { return importPart{name: name, uuid: true} }

// keyPart is a part that may be an ID, a key or a slug.
func keyPart(name string) importPart { return importPart{name: name} }

// importForm renders the accepted form, "<cluster id>/<queue id or key>".
func importForm(parts []importPart) string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name
	}
	return strings.Join(names, "/")
}

// splitImportID splits id into exactly the given parts, each non-empty and of the right kind, or explains the
// accepted form.
func splitImportID(id string, parts ...importPart) ([]string, error) {
	form := importForm(parts)
	values := strings.Split(strings.TrimSpace(id), "/")
	if len(values) != len(parts) {
		return nil, fmt.Errorf("expected an import ID of the form %q, got %q", form, id)
	}
	for i, v := range values {
		p := parts[i]
		switch {
		case v == "":
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q: %s is empty", form, id, p.name)
		case p.uuid && !isUUID(v):
			why := "is not a UUID"
			if looksLikeGraphQLID(v) {
				why = "looks like a GraphQL ID; this provider imports by REST ID (the UUID), which the web interface and the REST API show"
			}
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q: %s %q %s", form, id, p.name, v, why)
		}
	}
	return values, nil
}

// parseImportID is splitImportID that reports a failure as "Invalid Import ID" on resp.
func parseImportID(resp *resource.ImportStateResponse, id string, parts ...importPart) ([]string, bool) {
	values, err := splitImportID(id, parts...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", capitalize(err.Error())+".")
		return nil, false
	}
	return values, true
}

// looksLikeGraphQLID recognises the base64 "Type---uuid" IDs of the GraphQL API, which users of the official
// provider have in their import commands.
func looksLikeGraphQLID(s string) bool {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return err == nil && strings.Contains(string(b), "---")
}

// findByIDOrKey looks an object up by ID when key is a UUID, then by key among the listed objects: a queue's
// key or a pipeline's slug may itself look like a UUID, so a 404 by ID still tries the key. It returns a
// 404 *buildkite.Error when neither finds it.
func findByIDOrKey[T any](ctx context.Context, key string,
	get func(context.Context, string) (*T, error),
	list func(context.Context) ([]T, error),
	keyOf func(*T) string,
) (*T, error) {
	if isUUID(key) {
		obj, err := get(ctx, key)
		if err == nil || !buildkite.IsNotFound(err) {
			return obj, err
		}
	}
	items, err := list(ctx)
	if err != nil {
		return nil, err
	}
	for i := range items {
		if keyOf(&items[i]) == key {
			return &items[i], nil
		}
	}
	return nil, &buildkite.Error{StatusCode: 404, Message: fmt.Sprintf("nothing has the ID or key %q", key)}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

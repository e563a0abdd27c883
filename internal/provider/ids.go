package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Identifiers people type: UUIDs, and import IDs of "/"-separated parts (`<cluster id>/<queue id or key>`)
// checked part by part, with an error that shows the accepted form.

// uuidPattern matches a UUID in its canonical textual form.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID reports whether s is a UUID.
func isUUID(s string) bool { return uuidPattern.MatchString(s) }

// looksLikeGraphQLID recognises the base64 "Type---uuid" IDs of the GraphQL API, which users of the official
// provider have in their import commands.
func looksLikeGraphQLID(s string) bool {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return err == nil && strings.Contains(string(b), "---")
}

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

// setSlugOrID starts an imported object's state from its import key: a UUID is its ID, anything else its
// slug. Read then finds the object either way.
func setSlugOrID(ctx context.Context, resp *resource.ImportStateResponse, key string) diag.Diagnostics {
	attr := "slug"
	if isUUID(key) {
		attr = "id"
	}
	return resp.State.SetAttribute(ctx, path.Root(attr), key)
}

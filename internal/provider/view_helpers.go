package provider

import (
	"context"
	"fmt"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Pieces the read-only views share: each object's data-source attributes are written once, as computed
// attributes, and used both by the singular data source (with its lookup attributes made optional) and as
// the items of the plural one, so an item of a list carries exactly what the singular data source shows.

// withLookup returns attrs with the named attributes made Optional and Computed: the ones a singular data
// source may be asked by. description overrides each one's description, to say how it is used.
func withLookup(attrs map[string]dschema.Attribute, descriptions map[string]string) map[string]dschema.Attribute {
	for name, description := range descriptions {
		attrs[name] = dschema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true}
	}
	return attrs
}

// listOf is the computed list attribute of a plural data source whose items have attrs.
func listOf(description string, attrs map[string]dschema.Attribute) dschema.ListNestedAttribute {
	return dschema.ListNestedAttribute{
		MarkdownDescription: description,
		Computed:            true,
		NestedObject:        dschema.NestedAttributeObject{Attributes: attrs},
	}
}

// computedStrings returns computed string attributes with the given descriptions.
func computedStrings(descriptions map[string]string) map[string]dschema.Attribute {
	attrs := make(map[string]dschema.Attribute, len(descriptions))
	for name, description := range descriptions {
		attrs[name] = dschema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return attrs
}

// mergeAttrs adds every attribute of more to attrs and returns attrs.
func mergeAttrs(attrs map[string]dschema.Attribute, more map[string]dschema.Attribute) map[string]dschema.Attribute {
	for name, a := range more {
		attrs[name] = a
	}
	return attrs
}

// notFoundOrAPIError reports a failed lookup of one object: a 404 as "No <What> Found" naming what was
// asked for, the same words pickOne uses, and anything else as the service's error.
func notFoundOrAPIError(diags *diag.Diagnostics, err error, what, asked string) {
	if buildkite.IsNotFound(err) {
		diags.AddError("No "+titleWords(what)+" Found", fmt.Sprintf("No %s matches %s (%s).", what, asked, describeError(err)))
		return
	}
	addAPIError(diags, "read", what, asked, err)
}

// listItems lists objects with list and maps each to a data-source item with fill: the Read of a plural data
// source. A failure is reported as "Unable to List <What>", with of ("of cluster <id>", or "") in the
// detail; ok is false then.
func listItems[T, M any](ctx context.Context, diags *diag.Diagnostics, what, of string,
	list func(context.Context) ([]T, error), fill func(*M, *T)) (items []M, ok bool) {
	all, err := list(ctx)
	if err != nil {
		addAPIError(diags, "list", what, of, err)
		return nil, false
	}
	items = make([]M, len(all))
	for i := range all {
		fill(&items[i], &all[i])
	}
	return items, true
}

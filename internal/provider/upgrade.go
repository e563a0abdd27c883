package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// State upgrades: a workspace moves here from the official provider with `terraform state replace-provider`,
// which relabels its state and nothing else; from then on this provider's schema versions and upgraders
// decide what becomes of it. Every shared resource's version is above the official provider's (the
// pipeline's 2, the others' 1), so Terraform hands each state to an upgrader here, which rewrites it at the
// JSON level into this provider's shape: `terraform plan -refresh=false` never calls Read, so the upgrade
// alone must leave nothing to change.
//
// A version-0 state is either the official provider's or ours from before; ours holds `graphql_id`, the
// official provider's never does. A resource declares what is particular to it in a stateMoves value and
// returns upgraders(ctx, r, moves) from UpgradeState. The common steps are:
//   - its shape: `id` becomes the UUID (the stored `uuid`, else the one the GraphQL ID encodes) and
//     `graphql_id` the GraphQL ID it held; references (refs) become the UUIDs they encode; an optional
//     attribute it stored as "" or [] for "unset" becomes null, as this provider writes it; then
//     moves.official finishes it (upper-case enums need nothing: enums accept both spellings);
//   - ours: moves.ours, where set;
//   - both: attributes this schema does not have are dropped, absent ones with a default get it, and the
//     rest absent become null.

// stateAttrs is a state's attributes as JSON values (numbers as json.Number).
type stateAttrs map[string]any

// stateMoves declares how a resource's earlier states become its current one.
type stateMoves struct {
	// refs are the reference attributes (strings, or lists of strings) whose GraphQL IDs become UUIDs.
	refs []string
	// official, where set, finishes a state the official provider wrote at its schema version version.
	official func(version int64, a stateAttrs) error
	// ours, where set, finishes a state this provider wrote at an earlier version.
	ours func(version int64, a stateAttrs) error
}

// upgraders returns the upgrader of every version below r's schema version, for UpgradeState.
func upgraders(ctx context.Context, r resource.Resource, moves stateMoves) map[int64]resource.StateUpgrader {
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	current := sresp.Schema
	out := make(map[int64]resource.StateUpgrader, current.Version)
	for v := int64(0); v < current.Version; v++ {
		out[v] = resource.StateUpgrader{StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			upgraded, err := moveState(ctx, current, moves, v, req.RawState)
			if err != nil {
				resp.Diagnostics.AddError("Unable to Upgrade Resource State",
					fmt.Sprintf("Moving a state of schema version %d to version %d: %s. The state is unchanged; please report this "+
						"issue to the provider developers with the resource's state (without its secrets).", v, current.Version, err))
				return
			}
			resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
		}}
	}
	return out
}

// moveState rewrites a state of version version into the current schema's shape, as JSON.
func moveState(ctx context.Context, current schema.Schema, moves stateMoves, version int64, raw *tfprotov6.RawState) ([]byte, error) {
	if raw == nil || len(raw.JSON) == 0 {
		return nil, fmt.Errorf("the state holds no JSON (flatmap states of Terraform 0.11 are not supported)")
	}
	dec := json.NewDecoder(bytes.NewReader(raw.JSON))
	dec.UseNumber()
	var a stateAttrs
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	if _, ours := a[attrGraphQLID]; ours {
		if moves.ours != nil {
			if err := moves.ours(version, a); err != nil {
				return nil, err
			}
		}
	} else if err := fromOfficial(current, moves, version, a); err != nil {
		return nil, err
	}
	typ, ok := current.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("the schema is not an object")
	}
	pruned, _ := pruneToType(map[string]any(a), typ).(map[string]any)
	if err := fillDefaults(ctx, current, pruned); err != nil {
		return nil, err
	}
	return json.Marshal(pruned)
}

// fromOfficial applies the common steps to a state the official provider wrote, then moves.official.
func fromOfficial(current schema.Schema, moves stateMoves, version int64, a stateAttrs) error {
	graphQL, _ := a[attrID].(string)
	if _, _, ok := decodeGraphQLID(graphQL); ok {
		a[attrGraphQLID] = graphQL
	}
	// The stored uuid is the object's own; the GraphQL ID encodes the same one.
	if uuid, _ := a[attrUUID].(string); isUUID(uuid) {
		a[attrID] = uuid
	} else if graphQL != "" {
		a[attrID] = canonicalID(graphQL)
		a[attrUUID] = a[attrID]
	}
	for _, name := range moves.refs {
		a[name] = decodeRefs(a[name])
	}
	nullUnset(current, a)
	if moves.official != nil {
		return moves.official(version, a)
	}
	return nil
}

// decodeRefs turns a reference, or a list of them, into UUIDs; anything else is left as it is.
func decodeRefs(v any) any {
	switch t := v.(type) {
	case string:
		return canonicalID(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = decodeRefs(e)
		}
		return out
	}
	return v
}

// nullUnset turns the official provider's "" and [] for an unset optional attribute into null, which is
// how this provider writes "unset" for attributes that are optional and not computed.
func nullUnset(current schema.Schema, a stateAttrs) {
	for name, attribute := range current.Attributes {
		if !attribute.IsOptional() || attribute.IsComputed() {
			continue
		}
		switch v := a[name].(type) {
		case string:
			if v == "" {
				a[name] = nil
			}
		case []any:
			if len(v) == 0 {
				a[name] = nil
			}
		}
	}
}

// pruneToType drops from a JSON value every object attribute that typ does not have, at any depth.
func pruneToType(v any, typ tftypes.Type) any {
	switch t := typ.(type) {
	case tftypes.Object:
		m, ok := v.(map[string]any)
		if !ok {
			if sa, isAttrs := v.(stateAttrs); isAttrs {
				m, ok = map[string]any(sa), true
			}
		}
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		for k, val := range m {
			if at, known := t.AttributeTypes[k]; known {
				out[k] = pruneToType(val, at)
			}
		}
		return out
	case tftypes.List:
		return pruneElements(v, t.ElementType)
	case tftypes.Set:
		return pruneElements(v, t.ElementType)
	}
	return v
}

func pruneElements(v any, elem tftypes.Type) any {
	items, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(items))
	for i, item := range items {
		out[i] = pruneToType(item, elem)
	}
	return out
}

// fillDefaults gives every top-level attribute the state does not hold its schema default, which is what a
// configuration that leaves it out plans: an attribute added since the state was written must not show as a
// change from null.
func fillDefaults(ctx context.Context, current schema.Schema, a map[string]any) error {
	for name, attribute := range current.Attributes {
		if _, held := a[name]; held {
			continue
		}
		p := path.Root(name)
		var diags diag.Diagnostics
		switch at := attribute.(type) {
		case schema.BoolAttribute:
			if at.Default != nil {
				var resp defaults.BoolResponse
				at.Default.DefaultBool(ctx, defaults.BoolRequest{Path: p}, &resp)
				a[name], diags = resp.PlanValue.ValueBoolPointer(), resp.Diagnostics
			}
		case schema.StringAttribute:
			if at.Default != nil {
				var resp defaults.StringResponse
				at.Default.DefaultString(ctx, defaults.StringRequest{Path: p}, &resp)
				a[name], diags = resp.PlanValue.ValueStringPointer(), resp.Diagnostics
			}
		}
		if diags.HasError() {
			return fmt.Errorf("default of %s: %v", name, diags)
		}
	}
	return nil
}

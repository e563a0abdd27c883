package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

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
// official provider's never does. A resource declares what is particular to it in a StateMoves value and
// returns upgraders(ctx, r, moves) from UpgradeState. The common steps are:
//   - the ID rule (ids.go) first, for both: `id` of the type's form (idGraphQLTypes), `uuid` a UUID naming
//     the same object, every reference of refs a UUID, a GraphQL ID of its type (its schema's check, else
//     what its name says) or, where it takes one, a key. Anything else refuses the state with one error
//     that names the resource, each attribute and the fix, and nothing is planned: a guess could name
//     another object (a uuid that disagreed with id once renamed another pipeline);
//   - its shape: `id` becomes the UUID its GraphQL ID encodes (the stored `uuid` where it has no id) and
//     `graphql_id` the GraphQL ID it held; references (refs) become the UUIDs they encode; an optional
//     attribute it stored as "" or [] for "unset" becomes null, as this provider writes it, unless it is
//     computed (Optional+Computed, or with a default), where "" is kept; then moves.official finishes it
//     (upper-case enums need nothing: enums accept both spellings);
//   - ours: moves.ours, where set;
//   - both: attributes this schema does not have are dropped, absent ones with a default get it, and the
//     rest absent become null; then a state without `id`, without a required attribute, or with a value of
//     another JSON type than the schema's is refused as above.

// StateAttrs is a state's attributes as JSON values (numbers as json.Number).
type StateAttrs map[string]any

// StateMoves declares how a resource's earlier states become its current one.
type StateMoves struct {
	// Refs are the reference attributes (strings, or lists of strings) whose GraphQL IDs become UUIDs.
	Refs []string
	// Official, where set, finishes a state the official provider wrote at its schema version version.
	Official func(version int64, a StateAttrs) error
	// Ours, where set, finishes a state this provider wrote at an earlier version.
	Ours func(version int64, a StateAttrs) error
}

// Upgraders returns the upgrader of every version below r's schema version, for UpgradeState.
func Upgraders(ctx context.Context, r resource.Resource, moves StateMoves) map[int64]resource.StateUpgrader {
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	current := sresp.Schema
	var mresp resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &mresp)
	typeName := mresp.TypeName
	out := make(map[int64]resource.StateUpgrader, current.Version)
	for v := int64(0); v < current.Version; v++ {
		out[v] = resource.StateUpgrader{StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			upgraded, err := MoveState(ctx, typeName, current, moves, v, req.RawState)
			var refused *refusedState
			switch {
			case errors.As(err, &refused):
				resp.Diagnostics.AddError("Unreadable Resource State", refused.detail(typeName, v))
				return
			case err != nil:
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

// refusedState is a state the ID rule, or a missing required attribute, refuses to upgrade: what it holds
// cannot name the object it was written for, and any guess could name another.
type refusedState struct {
	who      string   // the instance as far as its attributes say: `name "ci", id "…"`
	problems []string // one per attribute: `cluster_id must be …`
}

func (e *refusedState) Error() string { return strings.Join(e.problems, "; ") }

// detail is the error's text: the resource, what is wrong with it attribute by attribute, and the fix.
func (e *refusedState) detail(typeName string, version int64) string {
	who := ""
	if e.who != "" {
		who = " (" + e.who + ")"
	}
	return fmt.Sprintf("The state of this %s%s, written at schema version %d, cannot be read: %s. What cannot be read "+
		"could name another object, or none, so nothing was guessed, planned or changed. %s",
		typeName, who, version, strings.Join(e.problems, "; "), idFix(typeName+".<name>"))
}

// MoveState rewrites a state of version version into the current schema's shape, as JSON.
func MoveState(ctx context.Context, typeName string, current schema.Schema, moves StateMoves, version int64, raw *tfprotov6.RawState) ([]byte, error) {
	if raw == nil || len(raw.JSON) == 0 {
		return nil, fmt.Errorf("the state holds no JSON (flatmap states of Terraform 0.11 are not supported)")
	}
	dec := json.NewDecoder(bytes.NewReader(raw.JSON))
	dec.UseNumber()
	var a StateAttrs
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	if a == nil {
		return nil, fmt.Errorf("the state holds no attributes")
	}
	refused := &refusedState{who: describeInstance(a)}
	name := strings.TrimPrefix(typeName, "buildkite_")
	_, ours := a[AttrGraphQLID]
	checkStateIDs(current, moves, name, a, !ours, refused)
	if len(refused.problems) > 0 {
		return nil, refused
	}
	// What a type's own moves refuse (an association without its two sides) is the state's fault too.
	if ours {
		if moves.Ours != nil {
			if err := moves.Ours(version, a); err != nil {
				refused.problems = append(refused.problems, err.Error())
				return nil, refused
			}
		}
	} else if err := fromOfficial(current, moves, version, a); err != nil {
		refused.problems = append(refused.problems, err.Error())
		return nil, refused
	}
	typ, ok := current.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("the schema is not an object")
	}
	pruned, _ := pruneToType(map[string]any(a), typ).(map[string]any)
	if err := fillDefaults(ctx, current, pruned); err != nil {
		return nil, err
	}
	checkRequired(current, pruned, refused)
	if len(refused.problems) > 0 {
		return nil, refused
	}
	out, err := json.Marshal(pruned)
	if err != nil {
		return nil, err
	}
	// A value of another JSON type than the schema's (a list for a string, a string for a number) is the
	// state's fault, not the provider's: it is refused here, naming where, rather than by the framework.
	if _, err := tftypes.ValueFromJSONWithOpts(out, typ, tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}); err != nil {
		refused.problems = append(refused.problems, "it does not fit this resource's schema: "+Shortened(err.Error()))
		return nil, refused
	}
	return out, nil
}

// describeInstance names an instance by what it holds that a person recognises (its name, key or slug,
// and its id), for an error that must say which instance it is about.
func describeInstance(a StateAttrs) string {
	var parts []string
	for _, k := range []string{"name", "key", "slug", "label", AttrID} {
		if v, ok := a[k].(string); ok && v != "" {
			parts = append(parts, k+" "+shownID(v))
		}
	}
	return strings.Join(parts, ", ")
}

// checkStateIDs applies the ID rule to the IDs of a state before it is moved, and, where rewrite (the
// official provider's states), rewrites the references into the UUIDs they name (ours keep the form their
// configuration wrote): `id` against the type's form (idGraphQLTypes), `uuid` a UUID naming the same
// object as `id`, and every reference of moves.refs against its types (refTypesOf, else refGraphQLTypes).
// Each problem is added to refused.
func checkStateIDs(current schema.Schema, moves StateMoves, name string, a StateAttrs, rewrite bool, refused *refusedState) {
	idUUID := ""
	if v, held := a[AttrID]; held && v != nil {
		if id, isString := v.(string); !isString {
			refused.add(AttrID, fmt.Errorf("must be a string ID, got %s", jsonShown(v)))
		} else if err := CheckStateID(name, id); err != nil {
			refused.add(AttrID, err)
		} else if !strings.Contains(id, "/") {
			idUUID = CanonicalID(id)
		}
	}
	idTypes, listed := idGraphQLTypes[name]
	if v, held := a[AttrUUID]; held && v != nil && listed {
		u, isString := v.(string)
		switch {
		case !isString:
			refused.add(AttrUUID, fmt.Errorf("must be a UUID, got %s", jsonShown(v)))
		case u == "" || strings.Contains(u, "/") && isAssociation(idTypes): // unset, or ours of an association: `id` decides
		case !IsUUID(u):
			refused.add(AttrUUID, fmt.Errorf("must be a UUID, got %s", shownID(u)))
		case idUUID != "" && IsUUID(idUUID) && !strings.EqualFold(u, idUUID):
			refused.problems = append(refused.problems, fmt.Sprintf("id %s names the object %s, and uuid names another, %s: "+
				"one of them is not this object's", shownID(fmt.Sprint(a[AttrID])), idUUID, u))
		}
	}
	for _, ref := range moves.Refs {
		types, keyOK := refGraphQLTypes(current, ref)
		switch v := a[ref].(type) {
		case nil:
		case string:
			if v == "" {
				continue // unset; a required one is caught after the move
			}
			id, err := CheckRef(v, types, keyOK)
			if err != nil {
				refused.add(ref, err)
				continue
			}
			checkTwin(a, ref, id, refused)
			if rewrite {
				a[ref] = id
			}
		case []any:
			for i, e := range v {
				s, isString := e.(string)
				if !isString {
					refused.add(fmt.Sprintf("%s[%d]", ref, i), fmt.Errorf("must be a string ID, got %s", jsonShown(e)))
					continue
				}
				if id, err := CheckRef(s, types, false); err != nil {
					refused.add(fmt.Sprintf("%s[%d]", ref, i), err)
				} else if rewrite {
					v[i] = id
				}
			}
		default:
			refused.add(ref, fmt.Errorf("must be a string ID, got %s", jsonShown(v)))
		}
	}
}

// checkTwin refuses a "<x>_uuid" beside the reference "<x>_id" (a queue's cluster_uuid beside its
// cluster_id) that is no UUID, or names another object than the reference's id does.
func checkTwin(a StateAttrs, ref, id string, refused *refusedState) {
	twin, isID := strings.CutSuffix(ref, "_id")
	if !isID {
		return
	}
	twin += "_uuid"
	v, held := a[twin]
	if !held || v == nil || v == "" {
		return
	}
	u, isString := v.(string)
	switch {
	case !isString || !IsUUID(u):
		refused.add(twin, fmt.Errorf("must be a UUID, got %s", jsonShown(v)))
	case IsUUID(id) && !strings.EqualFold(u, id):
		refused.problems = append(refused.problems, fmt.Sprintf("%s names the object %s, and %s names another, %s: "+
			"one of them is not the one this instance refers to", ref, id, twin, u))
	}
}

// add records that attribute name breaks the rule, as err says.
func (e *refusedState) add(name string, err error) {
	e.problems = append(e.problems, name+" "+err.Error())
}

// refGraphQLTypes are the GraphQL types reference attribute name accepts, and whether it takes a key too:
// its schema's check where it has one (refTypesOf), else what its name says (cluster_uuid: a Cluster).
func refGraphQLTypes(current schema.Schema, name string) ([]string, bool) {
	if attribute, ok := current.Attributes[name]; ok {
		var validators any
		switch at := attribute.(type) {
		case schema.StringAttribute:
			validators = at.Validators
		case schema.ListAttribute:
			validators = at.Validators
		}
		if types, keyOK, isRef := refTypesOf(validators); isRef {
			return types, keyOK
		}
	}
	for _, side := range []struct{ prefix, typ string }{
		{"cluster", "Cluster"}, {"queue", "ClusterQueue"}, {"pipeline_template", "PipelineTemplate"}, {"pipeline", "Pipeline"},
		{"test_suite", "Suite"}, {"user", "User"}, {"team", "Team"}, {"default_team", "Team"}, {"team_owner", "Team"},
	} {
		for _, suffix := range []string{"_id", "_uuid", "_ids"} {
			if name == side.prefix+suffix {
				return []string{side.typ}, false
			}
		}
	}
	return nil, false
}

// checkRequired refuses an upgraded state without an `id` or without a value for an attribute the schema
// requires: nothing it could plan from it would be right (a replacement, or a lookup of nothing).
func checkRequired(current schema.Schema, a map[string]any, refused *refusedState) {
	names := make([]string, 0, len(current.Attributes))
	for name, attribute := range current.Attributes {
		if attribute.IsRequired() || name == AttrID {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		switch v := a[name].(type) {
		case nil:
			refused.problems = append(refused.problems, name+" is missing, and the resource requires it")
		case string:
			if strings.TrimSpace(v) == "" {
				refused.problems = append(refused.problems, name+" is empty, and the resource requires it")
			}
		}
	}
}

// jsonShown renders a JSON value of a state for an error, cut short.
func jsonShown(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return Shortened(string(raw))
}

// fromOfficial applies the common steps to a state the official provider wrote (its IDs already checked
// and its references rewritten by checkStateIDs), then moves.official.
func fromOfficial(current schema.Schema, moves StateMoves, version int64, a StateAttrs) error {
	graphQL, _ := a[AttrID].(string)
	if _, _, ok := DecodeGraphQLID(graphQL); ok {
		a[AttrGraphQLID] = graphQL
	}
	// The object's UUID is the one its id names; checkStateIDs refused a uuid naming another.
	if graphQL != "" && !strings.Contains(graphQL, "/") {
		a[AttrID] = CanonicalID(graphQL)
		a[AttrUUID] = a[AttrID]
	} else if uuid, _ := a[AttrUUID].(string); IsUUID(uuid) {
		a[AttrID] = strings.ToLower(uuid)
	}
	nullUnset(current, a)
	if moves.Official != nil {
		return moves.Official(version, a)
	}
	return nil
}

// nullUnset turns the official provider's "" and [] for an unset optional attribute into null, which is
// how this provider writes "unset" for attributes that are optional and not computed.
func nullUnset(current schema.Schema, a StateAttrs) {
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
			if sa, isAttrs := v.(StateAttrs); isAttrs {
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

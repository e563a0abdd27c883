package kit

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// A parent named as written (ObjectKind.AsWritten): the parent attribute keeps the parent as the
// configuration wrote it (a pipeline's slug, UUID or GraphQL ID), so that the configuration's own spelling
// shows no difference, and the kind's calls are handed it so. Where the calls address the parent in
// another form, found from that one (a pipeline's slug, which a rename changes), a ParentLocator finds it
// for every call and keeps what it found in the private state, so that a refresh needs no lookup of the
// parent and follows its rename.

// ParentLocator finds the parent of an object named as written, as the kind's calls address it.
type ParentLocator struct {
	// PrivateKey is the key of the private state that keeps what is known of the parent between runs.
	PrivateKey string
	// Run runs call with the parent as the calls address it, found from ref (the parent attribute) and
	// from kept, what the private state kept of it (nil where it keeps nothing, as in a create); it returns
	// what the private state is to keep then.
	Run func(ctx context.Context, c *buildkite.Client, ref string, kept []byte, call func(parent string) error) ([]byte, error)
	// Same tells, at plan time, whether ref, a new value of the parent attribute, names the parent that
	// prior (with kept) named: another spelling of the same parent is no change, and another parent
	// replaces the object. Its error is reported on the attribute, in its own words where it is a
	// DiagnosedError.
	Same func(ctx context.Context, c *buildkite.Client, prior string, kept []byte, ref string) (bool, error)
	// Alone imports an object named by its own ID alone (an import ID with no "/"), searching the parents:
	// it returns the parent attribute's value, the key and what the private state is to keep. Its errors
	// are reported as the hooks' are. Nil: the import ID is always the kind's ImportParts.
	Alone func(ctx context.Context, c *buildkite.Client, id string) (ref, key string, kept []byte, err error)
}

// parentMemo is what is known of the parent during one operation: what the private state kept, then what
// the locator found. It travels in the operation's context, so that the kind's calls, wrapped once in
// NewObject (locatedKind), keep the signatures every kind's have, and an operation needs only to load it
// from its request's private state and record it in its response's.
type parentMemo struct{ kept []byte }

type parentMemoKey struct{}

// locating gives the kind's calls under ctx what private (nil in a create) kept of the parent.
func (r *objectResource[T, M]) locating(ctx context.Context, private PrivateReader) context.Context {
	m := &parentMemo{}
	if private != nil {
		if data, diags := private.GetKey(ctx, r.kind.Locate.PrivateKey); !diags.HasError() {
			m.kept = data
		}
	}
	return context.WithValue(ctx, parentMemoKey{}, m)
}

// keepParent records in private what the calls under ctx found of the parent.
func (r *objectResource[T, M]) keepParent(ctx context.Context, private PrivateWriter, diags *diag.Diagnostics) {
	if m, _ := ctx.Value(parentMemoKey{}).(*parentMemo); m != nil && len(m.kept) > 0 {
		diags.Append(private.SetKey(ctx, r.kind.Locate.PrivateKey, m.kept)...)
	}
}

// onParent runs call with the parent that ref names, as the locator finds it with what ctx's memo knows,
// which then holds what the locator found. The locator's answer is kept only when call succeeded, as an
// operation that fails records nothing.
func onParent(ctx context.Context, l *ParentLocator, c *buildkite.Client, ref string, call func(parent string) error) error {
	m, _ := ctx.Value(parentMemoKey{}).(*parentMemo)
	if m == nil {
		m = &parentMemo{}
	}
	kept, err := l.Run(ctx, c, ref, m.kept, call)
	if err == nil {
		m.kept = kept
	}
	return err
}

// locatedKind returns k with its client calls run through its locator, so that they are handed the parent
// as it finds it.
func locatedKind[T, M any](k *ObjectKind[T, M]) *ObjectKind[T, M] {
	l := *k
	l.Create = func(ctx context.Context, c *buildkite.Client, ref string, plan *M) (obj *T, err error) {
		err = onParent(ctx, k.Locate, c, ref, func(parent string) (err error) {
			obj, err = k.Create(ctx, c, parent, plan)
			return err
		})
		return obj, err
	}
	l.Get = func(ctx context.Context, c *buildkite.Client, ref, key string) (obj *T, err error) {
		err = onParent(ctx, k.Locate, c, ref, func(parent string) (err error) {
			obj, err = k.Get(ctx, c, parent, key)
			return err
		})
		return obj, err
	}
	if k.Update != nil {
		l.Update = func(ctx context.Context, c *buildkite.Client, ref, key string, plan, state *M) (obj *T, err error) {
			err = onParent(ctx, k.Locate, c, ref, func(parent string) (err error) {
				obj, err = k.Update(ctx, c, parent, key, plan, state)
				return err
			})
			return obj, err
		}
	}
	l.Remove = func(ctx context.Context, c *buildkite.Client, ref, key string) error {
		return onParent(ctx, k.Locate, c, ref, func(parent string) error { return k.Remove(ctx, c, parent, key) })
	}
	return &l
}

// replanParent decides, for a parent found by a locator, what a new value of the parent attribute means:
// another spelling of the same parent keeps the state's, another parent (or one not known until apply)
// replaces the object.
func (r *objectResource[T, M]) replanParent(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	at := path.Root(r.kind.Parent)
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, at, &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, at, &prior)...)
	if resp.Diagnostics.HasError() || planned.Equal(prior) {
		return
	}
	if planned.IsUnknown() || r.Data == nil {
		resp.RequiresReplace = append(resp.RequiresReplace, at)
		return
	}
	var kept []byte
	if data, diags := req.Private.GetKey(ctx, r.kind.Locate.PrivateKey); !diags.HasError() {
		kept = data
	}
	ctx, cancel := r.Timeout(ctx, OpRead)
	defer cancel()
	same, err := r.kind.Locate.Same(ctx, r.Client(), prior.ValueString(), kept, planned.ValueString())
	var own *DiagnosedError
	switch {
	case errors.As(err, &own):
		resp.Diagnostics.AddAttributeError(at, own.Summary, own.Detail)
	case err != nil:
		resp.Diagnostics.AddAttributeError(at, "Unable to Plan "+titleWords(r.kind.What), DescribeError(err))
	case same:
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at, prior)...)
	default:
		resp.RequiresReplace = append(resp.RequiresReplace, at)
	}
}

// importLocated imports an object whose parent a locator finds: by its own ID alone, through the
// locator's Alone, or by the kind's ImportParts, "<parent as written>/<key>", which the parent attribute
// then keeps as written. The object must exist; the private state keeps what was found of the parent.
func (r *objectResource[T, M]) importLocated(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	l := r.kind.Locate
	ctx = r.locating(ctx, nil)
	var ref, key, ident string
	var err error
	if id := strings.TrimSpace(req.ID); id != "" && !strings.Contains(id, "/") && l.Alone != nil {
		ident = id
		read, cancel := r.Timeout(ctx, OpRead)
		defer cancel()
		var kept []byte
		ref, key, kept, err = l.Alone(read, r.Client(), id)
		ctx.Value(parentMemoKey{}).(*parentMemo).kept = kept
	} else {
		parts, ok := r.ImportParts(ctx, req, resp, r.kind.ImportParts...)
		if !ok {
			return
		}
		ref, key, ident = parts[0], parts[1], strings.Join(parts, "/")
		read, cancel := r.Timeout(ctx, OpRead)
		defer cancel()
		_, err = r.kind.Get(read, r.Client(), ref, key)
	}
	if err != nil {
		r.hookFailed(&resp.Diagnostics, "import", ident, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.Parent), ref)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.Key), key)...)
	r.keepParent(ctx, resp.Private, &resp.Diagnostics)
}

// keyOr is the key of an object whose Key attribute may hold no ID of its type: IDOr of the two.
func (r *objectResource[T, M]) keyOr(ctx context.Context, src attributeSource, k string, diags *diag.Diagnostics) string {
	or, _ := stringAttribute(ctx, src, r.kind.KeyOr, diags)
	return IDOr(r.kind.Name, k, or)
}

// IDOr is the ID an object of the type name is addressed by: id where it is one (a UUID, or a GraphQL ID of
// the type), else or as it is. A state the official provider wrote holds a GraphQL ID in id and the UUID
// in uuid, so that is read until a refresh writes the UUID to id.
func IDOr(name, id, or string) string {
	if uuid, err := CheckID(id, idGraphQLTypes[name]); err == nil {
		return uuid
	}
	return or
}

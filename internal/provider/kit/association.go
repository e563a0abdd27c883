package kit

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Association resources link an object to a parent that the service keeps the link under: a team's members
// and its access to pipelines and suites (the link named by its two sides), a cluster's maintainers (the link
// has an ID of its own). They differ only in their attributes and client calls, so each is declared with an
// AssociationKind and served by the object kind's one implementation (NewAssociation): the type file holds the model, its
// mapping from the client's type and the descriptor, not another copy of Create, Read, Update and Delete.

// AssociationKind declares an association resource whose client type is T and whose model is M: an
// ObjectKind whose parent is the association's one side and whose key is the other ("team_id", "user_id"),
// or "id" where the association has an ID of its own. current, where set, takes over an existing one.
type AssociationKind[T, M any] = ObjectKind[T, M]

// NewAssociation returns the resource a kind declares: addressed and named in errors by its two sides.
func NewAssociation[T, M any](kind *AssociationKind[T, M]) resource.Resource {
	r := NewObject(kind).(*objectResource[T, M])
	r.sides = true
	return r
}

// BySides are the state moves of an association named by its two sides, parent and key ("team_id",
// "user_id"): the official provider's id is the GraphQL ID of the association itself, whose UUID the REST
// API never shows, so the id here is built from the two sides, which its state names by GraphQL ID.
func BySides(parent, key string) StateMoves {
	return StateMoves{Refs: []string{parent, key}, Official: func(_ int64, a StateAttrs) error {
		p, _ := a[parent].(string)
		k, _ := a[key].(string)
		if !IsUUID(p) || !IsUUID(k) {
			return fmt.Errorf("%s %q and %s %q do not name the association's two sides", parent, p, key, k)
		}
		a[AttrID] = AssociationID(p, k).ValueString()
		a[AttrUUID] = a[AttrID]
		return nil
	}}
}

// refusedCreate reports whether a create was refused in a way that may mean the association exists: a 422,
// or a GraphQL refusal ("has already been added") that is not a not-found. takeOver then looks.
func refusedCreate(err error) bool {
	var ge *buildkite.GraphQLError
	return buildkite.IsValidation(err) || errors.As(err, &ge) && !ge.Acted && !buildkite.IsNotFound(err)
}

// associationClaim is one association this command created or took over: a second resource of the
// configuration for the same sides is a duplicate, which the service's 422 then refuses, and is not taken
// over. mu orders the creates of one association, so the first settles before the second asks.
type associationClaim struct {
	mu   sync.Mutex
	held bool
}

// claim returns the claim on the association ident names, for the kinds that take over (whose sides are
// known before create), or nil.
func (r *objectResource[T, M]) claim(ident string) *associationClaim {
	if r.kind.Current == nil || r.Data == nil {
		return nil
	}
	c, _ := r.Data.claims.LoadOrStore(r.kind.Name+" "+ident, &associationClaim{})
	return c.(*associationClaim)
}

// takeOver finds the association a create was refused for and makes it what the plan says. When there is
// none, the 422 was about something else, and refused is returned as it is.
func (r *objectResource[T, M]) takeOver(ctx context.Context, parentID, key string, plan *M, refused error) (*T, error) {
	existing, err := r.kind.Get(ctx, r.Client(), parentID, key)
	if err != nil {
		return nil, refused
	}
	if r.kind.Current(existing, plan) {
		return existing, nil
	}
	return r.kind.Update(ctx, r.Client(), parentID, key, plan, nil)
}

// AssociationID is the ID of an association named by its two sides: "<parent id>/<other id>", the form it
// is imported with. The service gives team associations no identifier of their own.
func AssociationID(parentID, otherID string) types.String {
	return types.StringValue(parentID + "/" + otherID)
}

// AssociationAttributes are the computed identifiers of an association named by its two sides; what names
// it ("team membership") and form is its ID's ("<team id>/<user id>").
func AssociationAttributes(what, form string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs[AttrID] = ComputedString("The " + what + "'s ID, `" + form + "`.")
	attrs[AttrUUID] = ComputedString("Equal to `id`; configurations written for the official provider refer to it.")
	attrs[AttrGraphQLID] = ComputedString("The " + what + "'s GraphQL ID, where the service sends one (otherwise null).")
	return attrs
}

// TeamAndKey resolves the import parts "<team id or slug>/<other>" of a team association: the team by
// UUID or slug, then the other side with find among the team's associations, which returns the key.
func TeamAndKey(ctx context.Context, c *buildkite.Client, parts []string,
	find func(ctx context.Context, teamID, other string) (key string, err error)) (teamID, key string, err error) {
	t, err := FindTeam(ctx, c, parts[0])
	if err != nil {
		return "", "", err
	}
	key, err = find(ctx, t.ID, parts[1])
	return t.ID, key, err
}

// TeamAndOther is TeamAndKey for a team association whose other side is named by UUID or slug (a pipeline,
// a suite): the other side is looked up among the team's associations with get and list, and keyOf and
// slugOf read an association's other side.
func TeamAndOther[T any](ctx context.Context, c *buildkite.Client, parts []string,
	get func(ctx context.Context, teamID, id string) (*T, error),
	list func(ctx context.Context, teamID string) ([]T, error),
	keyOf, slugOf func(*T) string) (teamID, key string, err error) {
	return TeamAndKey(ctx, c, parts, func(ctx context.Context, teamID, other string) (string, error) {
		obj, err := FindByIDOrKey(ctx, other,
			func(ctx context.Context, id string) (*T, error) { return get(ctx, teamID, id) },
			func(ctx context.Context) ([]T, error) { return list(ctx, teamID) },
			slugOf)
		if err != nil {
			return "", err
		}
		return keyOf(obj), nil
	})
}

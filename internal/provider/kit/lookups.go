package kit

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Finding one object by what a person knows of it: an ID, a slug or a key, or a match among those listed.

// FindByIDOrKey looks an object up by ID when key is a UUID, then by key among the listed objects: a queue's
// key or a pipeline's slug may itself look like a UUID, so a 404 by ID still tries the key. It returns a
// 404 *buildkite.Error when neither finds it.
func FindByIDOrKey[T any](ctx context.Context, key string,
	get func(context.Context, string) (*T, error),
	list func(context.Context) ([]T, error),
	keyOf func(*T) string,
) (*T, error) {
	if IsUUID(key) {
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

// FindTeam finds a team by UUID or slug, as import IDs and the team data source name it.
func FindTeam(ctx context.Context, c *buildkite.Client, idOrSlug string) (*buildkite.Team, error) {
	return FindByIDOrKey(ctx, idOrSlug, c.Teams.Get,
		func(ctx context.Context) ([]buildkite.Team, error) {
			return c.Teams.List(ctx, buildkite.TeamListOptions{})
		},
		func(t *buildkite.Team) string { return t.Slug })
}

// FindPipeline finds the pipeline ref names: its slug, its UUID or its GraphQL ID.
func FindPipeline(ctx context.Context, c *buildkite.Client, ref string) (*buildkite.Pipeline, error) {
	id, byID, err := UuidOrGraphQLID(ref, "Pipeline")
	switch {
	case err != nil:
		return nil, err
	case !byID:
		return c.Pipelines.Get(ctx, ref)
	}
	return FindPipelineByID(ctx, c, id, ref)
}

// FindPipelineByID finds the pipeline with UUID id, which ref (the UUID itself, or a GraphQL ID) named. The
// API reads pipelines by slug, so a client that answers reads from listings finds it in the pipelines'
// listing, and one that does not searches it; a UUID that is no pipeline's ID is tried as a slug, which may
// look like one.
func FindPipelineByID(ctx context.Context, c *buildkite.Client, id, ref string) (*buildkite.Pipeline, error) {
	if p, err := c.Pipelines.Get(ctx, id); err == nil && p.ID == id {
		return p, nil
	} else if err != nil && !buildkite.IsNotFound(err) {
		return nil, err
	}
	p, err := c.Pipelines.Find(ctx, id, "")
	if buildkite.IsNotFound(err) && id == ref {
		p, err = c.Pipelines.Get(ctx, ref)
	}
	return p, err
}

// bySlugThenID reads an object the service addresses by slug: by the slug in state, then, when that answers
// 404 (the object was renamed elsewhere, or only its ID is known after an import), by its ID. An ID that is
// no UUID is never sent (the ID rule, ids.go): the slug's 404 is the answer, and RemoveGone, seeing the
// unreadable ID, keeps the object in state.
func bySlugThenID[T any](ctx context.Context, slug, id string,
	get, getByID func(context.Context, string) (*T, error)) (*T, error) {
	if slug != "" {
		obj, err := get(ctx, slug)
		if err == nil || !buildkite.IsNotFound(err) || !IsUUID(id) {
			return obj, err
		}
	}
	if !IsUUID(id) {
		return nil, &buildkite.Error{StatusCode: 404, Message: fmt.Sprintf("no slug, and the ID %s is not a UUID", shownID(id))}
	}
	return getByID(ctx, id)
}

// PickOne returns the one item that matches, or adds an error naming what was asked: "No Team Found" or
// "More Than One Team Found".
func PickOne[T any](diags *diag.Diagnostics, what, asked string, items []T, match func(*T) bool) *T {
	var found []*T
	for i := range items {
		if match(&items[i]) {
			found = append(found, &items[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		diags.AddError("No "+titleWords(what)+" Found", fmt.Sprintf("No %s matches %s.", what, asked))
	default:
		diags.AddError("More Than One "+titleWords(what)+" Found",
			fmt.Sprintf("%d %ss match %s; ask for one by its ID.", len(found), what, asked))
	}
	return nil
}

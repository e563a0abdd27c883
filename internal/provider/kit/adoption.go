package kit

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Adopting what an interrupted apply left behind. An apply killed before it wrote its state (SIGKILL, a
// machine lost) leaves on the service objects that Terraform knows nothing of, and the next apply's creates
// of them are refused because their names or keys are taken. Such a refusal names the object that holds
// the name and gives the import block that adopts it, so that the way out is one edit.

// Holder is the object that holds the name or key a create was refused for.
type Holder struct {
	Description string // `cluster queue "linux" (ID …) in cluster …`
	ImportID    string // the import ID that adopts it
}

// HolderLookup finds the holder of what a create was refused for, or nil when none is found.
type HolderLookup func(ctx context.Context) (*Holder, error)

// TakenRefusal reports whether err is the service refusing a create because a name or key that must be
// unique is taken ("has already been taken", "already exists").
func TakenRefusal(err error) bool {
	if !buildkite.IsValidation(err) && buildkite.StatusCode(err) != http.StatusConflict {
		return false
	}
	msg := strings.ToLower(DescribeError(err))
	return strings.Contains(msg, "already been taken") || strings.Contains(msg, "already exists")
}

// CreateFailed reports a failed create of what, named ident. When the service refused it because a name or
// key is taken, find looks for the object that holds it, and the error names that object with the import
// ID and the import block that adopt it. find is nil for a kind whose names need not be unique.
func (b *ResourceBase) CreateFailed(ctx context.Context, diags *diag.Diagnostics, err error, what, ident string, find HolderLookup) {
	if find == nil || !TakenRefusal(err) {
		AddAPIError(diags, "create", what, ident, err)
		return
	}
	h, findErr := find(ctx)
	switch {
	case findErr != nil:
		AddAPIError(diags, "create", what, ident, fmt.Errorf("%s; then looking for the object that holds it: %s", DescribeError(err), DescribeError(findErr)))
		return
	case h == nil:
		AddAPIError(diags, "create", what, ident, err)
		return
	}
	resourceType := "buildkite_" + b.Name
	diags.AddError("Unable to Create "+titleWords(what), fmt.Sprintf(
		"Creating %s %s: %s.\n\n"+
			"It is held by %s, which Terraform does not track here: most likely an earlier apply created it and "+
			"was stopped before it could record it. To manage that object with this configuration, adopt it: add "+
			"this block, with `to` set to the address in the \"with\" line above, and apply again:\n\n"+
			"import {\n  to = %s.<name>\n  id = %q\n}\n\n"+
			"(or run `terraform import '%s.<name>' %s`). If it is another object, give this one another name or "+
			"key, or delete that one. `terraform query` with the %s list resource finds every such object.",
		what, ident, DescribeError(err), h.Description, resourceType, h.ImportID, resourceType, h.ImportID, resourceType))
}

// slugOf is the slug the service derives from a name: lower case, each run of other characters than
// letters and digits one hyphen, none at the ends. Two names with the same slug cannot both be taken.
func SlugOf(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	return b.String()
}

// UniqueNames describes a kind whose names are unique in the organization through the slugs the service
// derives from them (teams, pipelines, suites, registries), so that the holder of a name can be found.
type UniqueNames[T any] struct {
	What           string // "team"
	List           func(ctx context.Context, c *buildkite.Client) ([]T, error)
	Name, Slug, Id func(*T) string
	ImportID       func(*T) string
}

// HolderOf finds the object whose name takes the slug name derives, or whose slug is one of slugs.
func (u *UniqueNames[T]) HolderOf(c *buildkite.Client, name string, slugs ...string) HolderLookup {
	return func(ctx context.Context) (*Holder, error) {
		items, err := u.List(ctx, c)
		if err != nil {
			return nil, err
		}
		want := SlugOf(name)
		for i := range items {
			it := &items[i]
			if SlugOf(u.Name(it)) == want || u.Slug(it) == want || slices.Contains(slugs, u.Slug(it)) {
				return &Holder{
					Description: fmt.Sprintf("%s %q (slug %s, ID %s)", u.What, u.Name(it), u.Slug(it), u.Id(it)),
					ImportID:    u.ImportID(it),
				}, nil
			}
		}
		return nil, nil
	}
}

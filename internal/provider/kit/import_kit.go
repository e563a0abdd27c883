package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Import by the `id` in state: the objects of a cluster (queues, agent tokens, secrets, maintainers) import
// as "<cluster id>/<id>", but a test or a script that imports with the ID Terraform holds gives only the
// object's own ID. That ID does not name its cluster, so each cluster is asked in turn; a registry token's
// registry likewise.

// QualifyImportID turns an import ID that is only the object's own ID (a UUID or a GraphQL ID, no "/" or
// ",") into "<parent>/<id>", asking each parent listed by parents whether it holds the object (get answers
// a 404 when it does not). Any other ID, and an import by identity, is left as it is. It reports false, with
// an error added, when no parent holds it or the service fails.
func QualifyImportID(ctx context.Context, req *resource.ImportStateRequest, resp *resource.ImportStateResponse, what, form string,
	parents func(ctx context.Context) ([]string, error), get func(ctx context.Context, parent, id string) error) bool {
	if req.ID == "" || strings.ContainsAny(req.ID, "/,") || !IsUUID(CanonicalID(req.ID)) {
		return true
	}
	id := CanonicalID(req.ID)
	ids, err := parents(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "import", what, req.ID, err)
		return false
	}
	for _, parent := range ids {
		err := get(ctx, parent, id)
		if err == nil {
			req.ID = parent + "/" + id
			return true
		}
		if !buildkite.IsNotFound(err) {
			AddAPIError(&resp.Diagnostics, "import", what, req.ID, err)
			return false
		}
	}
	resp.Diagnostics.AddError("Cannot Import "+titleWords(what),
		fmt.Sprintf("No %s has the ID %q (%d asked). Expected an import ID of the form %q, or the ID of an "+
			"existing %s.", what, req.ID, len(ids), form, what))
	return false
}

// ClusterIDs lists the IDs of the organization's clusters, the parents of a cluster's objects.
func ClusterIDs(c *buildkite.Client) func(ctx context.Context) ([]string, error) {
	return func(ctx context.Context) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		ids := make([]string, 0, len(clusters))
		for _, cl := range clusters {
			ids = append(ids, cl.ID)
		}
		return ids, err
	}
}

// Answers adapts a Get of the client to QualifyImportID's get.
func Answers[T any](get func(ctx context.Context, parent, id string) (*T, error)) func(ctx context.Context, parent, id string) error {
	return func(ctx context.Context, parent, id string) error {
		_, err := get(ctx, parent, id)
		return err
	}
}

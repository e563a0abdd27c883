package kit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// What needs GraphQL. Most of the provider is REST; a few values only Buildkite's GraphQL API serves
// (DESIGN.md, "REST first"). A resource declares what of it needs GraphQL: the whole type
// (ResourceBase.WithGraphQLType, or an ObjectKind's graphQL, e.g. an unclustered agent token or a team's
// access to a registry) or attributes, when the configuration
// sets them (ResourceBase.WithGraphQLAttrs, e.g. an organization's enforce_2fa). Its plan then fails,
// before anything is applied, where GraphQL cannot be reached: no graphql_url (rest_url set without it),
// or an API token without the graphql scope. A configuration that uses none of them never needs either.

// ScopeGraphQL is the API token scope that opens Buildkite's GraphQL API.
const ScopeGraphQL = "graphql"

// graphQLNeeds is what of a resource needs GraphQL.
type graphQLNeeds struct {
	// whole: every operation of the type does.
	whole bool
	// attrs: these attributes do when the configuration sets them; a nested one as "block.attribute".
	attrs []string
}

// WithGraphQLType returns the base of a type every operation of which goes through GraphQL.
func (b ResourceBase) WithGraphQLType() ResourceBase {
	b.graphQL.whole = true
	return b
}

// WithGraphQLAttrs returns the base with the named attributes ("a" or "block.a") needing GraphQL when set.
func (b ResourceBase) WithGraphQLAttrs(attrs ...string) ResourceBase {
	b.graphQL.attrs = append(b.graphQL.attrs, attrs...)
	return b
}

// graphQLUses names what of the planned change needs GraphQL: the type (for any plan that holds or
// destroys it) or the GraphQL attributes the configuration sets. Empty when nothing does.
func (b *ResourceBase) graphQLUses(req resource.ModifyPlanRequest) []string {
	if b.graphQL.whole {
		if req.Plan.Raw.IsNull() && req.State.Raw.IsNull() {
			return nil
		}
		return []string{"buildkite_" + b.Name}
	}
	if req.Plan.Raw.IsNull() || req.Config.Raw.IsNull() {
		return nil
	}
	var used []string
	for _, a := range b.graphQL.attrs {
		if configSets(req.Config.Raw, a) {
			used = append(used, "buildkite_"+b.Name+"."+a)
		}
	}
	return used
}

// configSets reports whether the configuration sets the attribute at dotted (unknown counts as set).
func configSets(config tftypes.Value, dotted string) bool {
	p := tftypes.NewAttributePath()
	for _, name := range strings.Split(dotted, ".") {
		p = p.WithAttributeName(name)
	}
	v, _, err := tftypes.WalkAttributePath(config, p)
	val, ok := v.(tftypes.Value)
	return err == nil && ok && !val.IsNull()
}

// checkGraphQL fails the plan, naming what needs GraphQL, where GraphQL cannot be reached: the provider
// has no GraphQL endpoint, or the API token lacks the graphql scope.
func (b *ResourceBase) checkGraphQL(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if b.Data == nil {
		return
	}
	used := b.graphQLUses(req)
	if len(used) == 0 {
		return
	}
	if !b.Data.Client.HasGraphQL() {
		resp.Diagnostics.AddAttributeError(path.Root("graphql_url"), titleGraphQLURL,
			fmt.Sprintf("%s %s set through Buildkite's GraphQL API, and %s. Nothing has been changed.",
				joinAnd(quoted(used)), isAre(len(used)), noGraphQLEndpoint))
		return
	}
	// The token's scopes are known once first contact is made (Configure makes it).
	if !b.Data.contactForPlan(ctx, &resp.Diagnostics) {
		return
	}
	if missing := b.Data.MissingScopes([]string{ScopeGraphQL}); len(missing) > 0 {
		resp.Diagnostics.AddError(titleGraphQLScope,
			fmt.Sprintf("%s %s set through Buildkite's GraphQL API, and %s, or remove %s from the configuration, and "+
				"plan again; nothing has been changed.", joinAnd(quoted(used)), isAre(len(used)), noGraphQLScope, them(len(used))))
	}
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

func quoted(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "`" + w + "`"
	}
	return out
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// Why GraphQL cannot be reached, and what to do, worded once for every place that says so: a plan that
// needs GraphQL (checkGraphQL, RequireGraphQL) and an operation that needed it (DescribeError).
const (
	titleGraphQLURL   = "GraphQL URL Not Set"
	titleGraphQLScope = "Missing API Token Scope"
	noGraphQLEndpoint = "the provider has no GraphQL endpoint: rest_url (or " + EnvRESTURL + ") is set and graphql_url " +
		"is not, so the API token is sent to no GraphQL origin. Set \"graphql_url\" (or " + EnvGraphQLURL + ") to the " +
		"GraphQL endpoint that goes with rest_url (the emulator serves it at <rest_url>/v1, Buildkite at " +
		DefaultGraphQLURL + ")"
	noGraphQLScope = "the API token lacks the \"" + ScopeGraphQL + "\" scope (\"Enable GraphQL API access\"). Add the " +
		"scope to the token (or use another token)"
)

// graphQLURLMissing is the detail of an operation that needed GraphQL where the provider has no endpoint.
const graphQLURLMissing = "this needs Buildkite's GraphQL API, and " + noGraphQLEndpoint

// GraphQLReachable reports whether Buildkite's GraphQL API can be asked: the provider has a GraphQL
// endpoint and the API token, as far as the provider knows, has the graphql scope. Reads that add what only
// GraphQL tells (a rule's description and conditions, say) ask it only then, so that a configuration that
// sets none of it keeps working with a REST-only token.
func (d *ProviderData) GraphQLReachable() bool {
	return d != nil && d.Client != nil && d.Client.HasGraphQL() && len(d.MissingScopes([]string{ScopeGraphQL})) == 0
}

// RequireGraphQL fails a plan whose change of the attribute at p (of resource type name) only GraphQL can
// make, where GraphQL cannot be reached; what says what the change is.
func (d *ProviderData) RequireGraphQL(diags *diag.Diagnostics, name string, p path.Path, what string) {
	if d == nil || d.GraphQLReachable() {
		return
	}
	title, why := titleGraphQLScope, noGraphQLScope
	if !d.Client.HasGraphQL() {
		title, why = titleGraphQLURL, noGraphQLEndpoint
	}
	diags.AddAttributeError(p, title, fmt.Sprintf("buildkite_%s: %s is made through Buildkite's GraphQL API, and %s, "+
		"and plan again; nothing has been changed.", name, what, why))
}

// AddGraphQLError reports a failed GraphQL operation as AddAPIError does, with each of the service's errors
// on the attribute it names: fields maps a GraphQL input field (as an error's path or its message's first
// word names it, e.g. "description") to the attribute. Errors that name none go on the resource. Other
// errors are AddAPIError's. What the client did after the answer (revoked what a create made without its
// secret, say) follows the service's words; only an answer that carried no result is called a refusal.
func AddGraphQLError(diags *diag.Diagnostics, action, kind, ident string, err error, fields map[string]path.Path) {
	var ge *buildkite.GraphQLError
	if !errors.As(err, &ge) {
		AddAPIError(diags, action, kind, ident, err)
		return
	}
	title := fmt.Sprintf("Unable to %s %s", Capitalize(action), titleWords(kind))
	subject := kind
	if ident != "" {
		subject = kind + " " + ident
	}
	how := "the service refused it"
	_, after, _ := strings.Cut(err.Error(), ge.Error())
	if ge.Acted || after != "" {
		how = "the service answered with errors"
	}
	for _, item := range ge.Errors {
		detail := fmt.Sprintf("%s %s: %s (GraphQL %s): %s%s", Gerund(action), subject, how, ge.Operation, item.Message, after)
		if p, ok := GraphQLErrorAttribute(item, fields); ok {
			diags.AddAttributeError(p, title, detail)
			continue
		}
		diags.AddError(title, detail)
	}
}

// ActedWithErrors reports whether err is the answer of a GraphQL mutation that acted despite its errors:
// the call returned what the service made or changed, which the caller records as it records a success.
// The errors become a warning naming the object, so that they are seen, and nothing is reported as
// refused that was made. Any other err (nil included) adds nothing.
func ActedWithErrors(diags *diag.Diagnostics, err error, action, kind, ident string) bool {
	ge, ok := buildkite.ActedWithErrors(err)
	if !ok {
		return false
	}
	subject := kind
	if ident != "" {
		subject = kind + " " + ident
	}
	diags.AddWarning("Buildkite Answered With Errors", fmt.Sprintf(
		"%s %s: the service did it (its answer carries the result, which Terraform records) and answered with errors "+
			"as well (GraphQL %s): %s. Check the %s in Buildkite; if it differs from the configuration, the next plan "+
			"shows the difference.", Gerund(action), subject, ge.Operation, strings.Join(ge.Messages(), "; "), kind))
	return true
}

// AddPartReadError reports the failure of the GraphQL read of a part (part) of an object the REST API has
// just served: a null, a "not found" or any other error there says nothing of the object itself, which
// only its own REST 404 removes from state. The resource stays in state as it was.
func AddPartReadError(diags *diag.Diagnostics, kind, ident, part string, err error) {
	what := DescribeError(err)
	var ge *buildkite.GraphQLError
	switch {
	case errors.As(err, &ge):
		what = ge.Error()
	case buildkite.IsNotFound(err):
		what = "GraphQL answered that it knows no such object (" + err.Error() + ")"
	}
	diags.AddError("Unable to Read "+titleWords(kind), fmt.Sprintf(
		"Reading %s %s: the REST API serves it, but reading its %s through Buildkite's GraphQL API failed: %s. The "+
			"%s stays in state as it was: only the REST API's own 404 means it is gone. Plan again once GraphQL "+
			"answers for it; if it keeps failing, check that the API token's user can see the %s through GraphQL "+
			"(graphql_url, and the token's %q scope).", kind, ident, part, what, kind, kind, ScopeGraphQL))
}

// GraphQLErrorAttribute finds the attribute an error names: the innermost name of its path that fields
// knows, else its message's first word ("Description is too long").
func GraphQLErrorAttribute(item buildkite.GraphQLErrorItem, fields map[string]path.Path) (path.Path, bool) {
	names := item.PathNames()
	for i := len(names) - 1; i >= 0; i-- {
		if p, ok := fields[names[i]]; ok {
			return p, true
		}
	}
	if first, _, _ := strings.Cut(strings.TrimPrefix(item.Message, "input: "), " "); first != "" {
		for field, p := range fields {
			if strings.EqualFold(first, field) {
				return p, true
			}
		}
	}
	return path.Empty(), false
}

// Package provider implements the buildkite Terraform provider on terraform-plugin-framework (protocol 6),
// over the client in internal/buildkite (REST, and GraphQL where only GraphQL serves).
//
// # Layout
//
// The types live in one package per area below this one: clusters, pipelines, teams, suites, registries,
// organization, actions and functions, each with its types' files and their tests (in the external package
// <area>_test), none over about 60 source files (TestHouse_areasStaySmall). One file per type
// (clusters/cluster_resource.go, clusters/clusters_data_source.go, clusters/cluster_list_resource.go, ...)
// holds only what is particular to its object. Everything types share is in the kit, package
// internal/provider/kit, one file per role. The kit cannot import this package or an area, so it refers to
// no type, and an area imports no other area (TestHouse_areasImportNoOtherArea): what two areas share moves
// into the kit. provider.go, provider_configure.go, provider_server.go and action_stop.go stay here, with the
// tests that span areas (hostile state, sensitive values, faults, the house tests); the other files below
// are the kit's:
//
//   - provider.go: the provider's schema and the registries Resources, DataSources, ListResources,
//     EphemeralResources, Actions and Functions, grouped by area; provider_configure.go: Configure (the provider block, the environment,
//     and first contact, so that a wrong address, token or organization is one error at plan time);
//     provider_data.go: what Configure hands every type, and the organization check that stands behind
//     every "deleted outside Terraform".
//   - provider_server.go: the protocol 6 server main.go serves.
//   - resource_base.go: ResourceBase (Metadata, Configure, client, timeout, ReadFailed, DeleteFailed, and
//     the finish* guards of what Create, Read and Update leave); scopes.go: token scopes checked at plan
//     time (its ModifyPlan); timeouts.go: operation timeouts; adoption.go: a create refused because a name
//     or key is taken names the holder and the import block that adopts it.
//   - singleton_settings.go: the rule of the organization's singletons (a setting left out is read, never
//     written; destroy undoes only what the configuration managed, recorded in private state, and warns of
//     the rest); lost_secret.go: a secret only the create answer carries is obtained by one re-create or
//     the object is kept tainted with an error (SecretLost); logging.go: values the schema marks sensitive
//     or write-only are registered with the client's masker at plan (maskSensitive).
//   - identity.go: resource identities (import blocks by identity, terraform query).
//   - object.go: ObjectKind, the descriptor a resource type is declared with, and objectResource, the one
//     implementation of Create, Read, Update, Delete, ImportState, identity, timeouts and the shared
//     failure paths, with hooks for what a type really does otherwise (a secret only the create answer
//     carries, a slug a rename changes, a plan-time refusal, a write-only value); association.go:
//     AssociationKind, the same kind for an association (an object linked under a parent, named by its two
//     sides), served by NewAssociation.
//   - data_source_kit.go: DataSourceBase and the pieces of singular and plural data sources.
//   - list_resource_kit.go: the bases of list resources (NamedList, ChildList), and WithWarnings for a listing
//     that could not show everything (the unclustered agent tokens past both ends of their listing).
//   - schema_attributes.go (shared attributes: id, uuid, URLs, parents), enums.go (case-insensitive
//     enums), validators.go, plan_modifiers.go, semantic_string.go (YAML and JSON compared by meaning).
//   - diagnostics.go (the words of errors), ids.go (UUIDs and import IDs, GraphQL IDs in them, and the ID
//     rule: every ID read from state, configuration or an import is a UUID, a GraphQL ID of the expected
//     type (idGraphQLTypes, CheckID, CheckRef) or the type's key, else an error naming the attribute; an
//     unreadable ID is never sent, and its 404 never removes anything), lookups.go (finding an object by
//     ID, slug or key), values.go (Go values to Terraform values and back, ValueOrEnv, IsKnownValue: the one
//     test of "neither null nor unknown"), import_kit.go (an import by an object's own ID finds its parent);
//     ids.go also holds the ID validators; graphql_ids.go: GraphQL IDs, the official provider's form of an
//     identifier, converted to and from UUIDs.
//   - graphql_scope.go: what needs Buildkite's GraphQL API, declared by a resource (WithGraphQLType,
//     WithGraphQLAttrs) or by a change (RequireGraphQL) and checked at plan time, with one wording of why
//     GraphQL cannot be reached (no endpoint, or no graphql scope) and of GraphQL's errors (AddGraphQLError).
//   - cronline.go: pipeline schedules' cronlines, checked at plan time for what the service accepts.
//   - enums.go: what the service answers is stored in the official provider's upper-case form.
//   - action_base.go (actions' inputs checked again once variables are known), action_stop.go (a stop
//     waits for running actions' last event, so an interrupted wait fails instead of reporting success).
//   - Moving from the official provider: references.go (RefAttribute, ParentIDAttribute: references that
//     take a UUID or a GraphQL ID and never diff between them), upgrade.go (schema versions above its, and
//     the JSON-level upgrade of its states and our earlier ones). What the official provider sets through
//     GraphQL is applied through GraphQL here too (graphql_scope.go).
//
// # The test harness
//
// A test file is named for what it tests (clusters/cluster_resource_test.go, hostile_state_test.go, ...) and
// lives beside it. What test files share is the harness, package internal/provider/acctest, one file per
// role (TestHouse_sharedTestHelpersLiveInTheHarness fails when a test file uses a helper another test file
// declares; a type's configuration builders stay beside its tests, those another area's tests use are in
// acctest/shared.go). The harness cannot import the provider, whose own tests import it: what it needs of
// the provider (its factory, its server, the GraphQL endpoint) is set through acctest/hooks.go, for the
// areas' tests by importing package acctest/withprovider and for the provider's own in their
// acctest_test.go; what it needs of an area it imports (acctest/areas.go), an area's tests being its
// external package.
//
//   - acctest/type_tests.go: a type's rows of the tables every type runs through (TypeTests: identity,
//     migration, query, ...), registered from the type's own test file with RegisterTypeTests. The rows a
//     test file registers exist only in its package's test binary, so each package's views_test.go runs
//     the tables' views (acctest/views_*.go: RunAccResourcesIdentity, RunAccMigrationFromOfficialProvider,
//     ...) under the tests' names over the rows it holds, and RunHouseEveryTypeHasItsTestRows fails when a
//     type the package declares lacks a row a table requires and its Exempt does not say why.
//   - acctest/sweepers.go: every type's sweeper (how `make sweep` finds and removes its objects), in every
//     binary, since terraform-plugin-testing resolves a sweeper's dependencies inside one;
//     acctest/test_kinds.go: every type's test kind (the emulator's Kind and store key, get and delete for
//     live runs), in every binary too: a test of one area destroys objects of another's types.
//   - acctest/env.go: Main, TestEnv (a fresh emulator and provider per test: NewTestEnv, NewTestEnvWith,
//     its factories and config), the live environment and RegexpMust.
//   - acctest/acc.go: the steps every type runs (ImportSteps, e.Disappears, e.CheckDestroyed).
//   - acctest/values.go: PtrTo, UUIDs (TestUUID, OtherUUID, UnknownUUID) and GraphQL IDs (B64).
//   - acctest/seed.go: objects made in the emulator's store outside Terraform; acctest/query_seed.go: the
//     seeds of terraform query's areas; acctest/checks.go: checks of the store and the state several
//     types' tests use.
//   - acctest/singleton.go: holding the organization's singletons and putting them back; acctest/sweep.go:
//     the sweepers' machinery and live runs' leftovers; acctest/service_state.go: the emulator's store
//     compared with Terraform's state (acctest/service_states.go lists each type's objects).
//   - acctest/newcli.go: the Terraform CLI a test drives (TerraformCLI, RequireCLI); acctest/cli.go: a
//     work directory for the CLI; acctest/action.go: what the actions' tests share.
//   - acctest/migration.go: the official provider's workspaces and schema (OfficialWorkspace).
//   - acctest/bench.go, acctest/bench_cpu_*.go: the benchmarks' knobs and the process's CPU time.
//   - acctest/aimed_faults.go: faults the emulator aims at one request.
//
// # Adding a resource type
//
//  1. The emulator first: its area in fakeserver (see that package's doc), and the client's
//     service in internal/buildkite.
//  2. <name>_resource.go, in this order (teams/team_resource.go is the plainest; organization/portal_resource.go adds a
//     secret, suites/test_suite_resource.go a slug that follows the name, clusters/cluster_secret_resource.go a parent and
//     a write-only value):
//     - the identity: IdentifiedBy(IdentityAttr(...)), attributes in the order of the import ID
//     (MutableIdentity where it follows a rename);
//     - New<Name>Resource, returning NewObject(<name>Kind);
//     - the model with tfsdk tags, and its fromAPI, toCreate and toUpdate;
//     - <name>Kind, an ObjectKind[buildkite.<T>, <name>Model] (kit/object.go): Name, What (in errors),
//     Scopes (WriteScopes("write_...")), Identity, Schema, Moves (StateMoves for earlier states), Key
//     (the attribute that addresses it: "id", or "slug"), Parent (the parent's attribute, for an object
//     kept under another, such as "cluster_id"), FromAPI, and the client's Create, Get, Update (nil when
//     every change replaces it) and Remove; ImportParts (UuidPart("<cluster id>", "Cluster"),
//     KeyPart("<key>"), each part naming the GraphQL types whose IDs it accepts) and Resolve where an
//     import part must be looked up (a slug to an ID). Set a hook only where the type differs: Named (how
//     a create names it in errors), Holder (names or keys are unique: a refused create names the object to
//     adopt), Secret (only the create answer carries it), Replaced, DeleteRefused, ExplainCreate, Planned,
//     Renamed, ModifyPlan, Validators, WriteOnly, ByID and KeyOf (addressed by a slug a rename elsewhere
//     changes), Parents (imported by its own ID alone), AfterImport, Setting (a setting of its parent, named
//     by the parent: Get answers ErrAbsent where the parent holds none), Singleton (the organization's
//     one), GraphQL (calls through GraphQL: an answer that acted and carries errors is recorded with a
//     warning), AfterCreate (a wait after the create is recorded: the hosted agent image's build),
//     OpaqueKey (an id the service assigns that is not a UUID), Applied (checks that the service holds
//     what was planned), Kept (an object that outlives the resource: Delete warns and sends nothing),
//     WritePart and ReadPart (a part served apart, through GraphQL), PlanWith (a plan-time check that asks
//     the service or the provider's settings), OtherImportID (an import ID in another provider's form),
//     AsWritten, Locate and KeyOr (a parent named as written, found through private state), Find, RemoveFrom,
//     LoadPrivate and SavePrivate (a state that steers the calls: the pipeline), Lookup and Import (an
//     object found from its state and adopted: the membership), Settings and ImportWhole (a singleton's
//     managed settings: the organization).
//     A client call or hook reports an error in its own words with DiagnosedError (from Get, nothing leaves
//     state; from Create or Update with an answer, the change applied in part is recorded), as another
//     operation with ReportedAs ("set", "unset"), as a warning of what a succeeding operation left
//     behind with LeftBehind, or as diagnostics it gives itself (several errors, an error on an attribute,
//     warnings beside it) with Reported (AsReported, DiagnosticsError, StepFailed for a later step of a
//     create). The kind gives every type the same Create, Read, Update, Delete and
//     ImportState: FinishCreate, FinishRead and FinishUpdate (no state without an ID, the identity kept
//     current), the operation timeouts (a write outlives Ctrl-C within its timeout), CreateFailed,
//     ReadFailed (a resource leaves state only through RemoveGone), DeleteFailed, SecretLost. An ID is sent
//     as the UUID it names (RestID); a reference to another object is a RefAttribute, its model field a
//     RefValue sent as .UUID().
//     - the schema function: WithCommon for id, uuid, graphql_id and URLs, ParentIDAttribute for a
//     parent, CaseInsensitiveEnum for enums, ComputedString for what the service assigns.
//     An association (an object linked under a parent) is the same kind, served by NewAssociation(kind).
//     Every resource type is served by the kind; what a type does beyond it stays in its own file as the
//     hooks' functions (pipelines/pipeline_resource_steps.go, organization/organization_membership_resource.go). A computed
//     attribute the service changes with every update (updated_at) has no UseStateForUnknown; where a plan
//     modifier turns a differing configuration into no change (semantic YAML), ModifyPlan plans it back to
//     the state's when nothing else changed (clusters/cluster_secret_resource.go), or every such plan shows an
//     update.
//     A type the official provider has too: every attribute of its schema (testdata/official-schema.json)
//     exists here (TestSchemaCoversOfficialProvider lists what is missing); attributes only its GraphQL API
//     sets are applied through it and declared with NewResourceBase(...).WithGraphQLAttrs("description"); the
//     schema's Version is above its (`Version: 1`, or its version + 1) and the kind's Moves are
//     StateMoves{Refs: [...the reference attributes...]}, with an Official or Ours function for what the
//     common steps do not cover (see kit/upgrade.go).
//  3. Register New<Name>Resource in provider.go's Resources.
//  4. A data source: <name>_data_source.go embedding DataSourceBase, its attributes written once in a
//     <name>DataAttributes function that the plural data source reuses through ListOf and ListItems;
//     register it in DataSources.
//  5. A list resource, in <name>_list_resource.go: a NamedList (found by name in one listing) or a
//     ChildList (found under parents, with a ParentKind), returning the resource's model as Read leaves
//     it; register it in ListResources.
//  6. Tests, against a fresh emulator each (acctest.NewTestEnv): its test kind in acctest/test_kinds.go and
//     its sweeper in acctest/sweepers.go (every test binary holds them all), then, in
//     <area>/<name>_resource_test.go,
//     TestAcc<Name>Resource_basic (create, importSteps, update in place, replacement, with CheckDestroy)
//     and _disappears (e.disappears). The same file registers the type's rows of the tables every type
//     runs through, once, as `var _ = acctest.RegisterTypeTests("buildkite_<name>", acctest.TypeTests{...})`
//     at its end:
//     identity (TestAccResources_identity, under Terraform 1.16: `make testacc-next`), invalidIdentity
//     where its identity can be malformed, query for its list resource (TestAccResources_query, under
//     Terraform 1.16, with its area's seed in acctest/query_seed.go), lostSecret for a secret only
//     the create answer carries, taken where its names or keys are unique (adoption_test.go),
//     association for an association type (its life-cycle test, association_test.go), upgrade for its
//     earlier states (acctest/views_upgrade.go), and, where a table that requires a row does not apply,
//     Exempt with the reason (a queue goes with its cluster, so it has no sweeper). Its objects' IDs on the
//     service, compared with the state after faults, go in acctest/service_states.go.
//     TestHouse_everyTypeHasItsTestRows (its area's views_test.go) names every row a type lacks.
//     A type the official provider has too registers its migration rows (TypeTests.Migration), each
//     with an add method of officialWorkspace that creates the objects in the emulator (w.withCluster(),
//     w.withTeam() for what it needs) and calls w.add with the configuration in that provider's style and
//     the instance as its state stores it (officialInstance: its attributes, GraphQL IDs built with
//     GraphQLID, version and without for an older schema version of it); the harness
//     (acctest/migration.go) fills the rest of its schema from testdata/official-schema.json, writes the
//     state file, runs replace-provider and fails unless every plan is empty. Then rewrite
//     examples/migration, which holds every row (TestAccMigration_example -update-migration-example).
//  7. Examples and docs: examples/resources/buildkite_<name>/resource.tf, import.sh and
//     import-by-identity.tf, examples/list-resources/buildkite_<name>/list-resource.tfquery.hcl (data
//     sources: examples/data-sources/buildkite_<name>/data-source.tf), then `make docs`, which writes docs/
//     from the schemas Terraform 1.16 reports (bin/terraform-1.16) and templates/; commit docs/, which
//     `make docs-check` compares. Use the type in examples/demo (`make demo` applies it and re-plans
//     empty), and add it to README.md's table and CHANGELOG.md.
package provider

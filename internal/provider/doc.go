// Package provider implements the buildkite Terraform provider on terraform-plugin-framework (protocol 6),
// over the REST client in internal/buildkite.
//
// # Layout
//
// One file per type (cluster_resource.go, clusters_data_source.go, ...) holds only what is particular to
// its object; the area's list resources share a file (cluster_list_resources.go). Everything types share is
// in the kit, one file per role:
//
//   - provider.go: the provider's schema, Configure and the registries Resources, DataSources and
//     ListResources; provider_data.go: what Configure hands every type, and the organization check that
//     stands behind every "deleted outside Terraform".
//   - resource_base.go: resourceBase (Metadata, Configure, client, timeout, readFailed, deleteFailed);
//     scopes.go: token scopes checked at plan time (its ModifyPlan); timeouts.go: operation timeouts.
//   - identity.go: resource identities (import blocks by identity, terraform query).
//   - association.go: associationKind, the descriptor an association resource is declared with, and the
//     one implementation of its Create, Read, Update, Delete and ImportState.
//   - data_source_kit.go: dataSourceBase and the pieces of singular and plural data sources.
//   - list_resource_kit.go: the bases of list resources (namedList, childList).
//   - schema_attributes.go (shared attributes: id, uuid, URLs, parents), enums.go (case-insensitive
//     enums), validators.go, plan_modifiers.go, semantic_string.go (YAML and JSON compared by meaning).
//   - diagnostics.go (the words of errors), ids.go (UUIDs and import IDs, GraphQL IDs in them), lookups.go
//     (finding an object by ID, slug or key), values.go (Go values to Terraform values and back).
//   - Moving from the official provider: references.go (refAttribute, parentIDAttribute: references that
//     take a UUID or a GraphQL ID and never diff between them), graphql_only.go (attributes only its GraphQL
//     API sets: accepted, kept, never sent, one warning), upgrade.go (schema versions above its, and the
//     JSON-level upgrade of its states and our earlier ones).
//
// # Adding a resource type
//
//  1. The emulator first: its area in internal/fakeserver (see that package's doc), and the client's
//     service in internal/buildkite.
//  2. <name>_resource.go, in this order: interface assertions; the identity,
//     identifiedBy(identityAttr(...)) with the attributes in the order of the import ID; the constructor
//     New<Name>Resource returning a struct that embeds resourceBase (newResourceBase("<name>",
//     writeScopes("write_...")) and resourceIdentity; the model with tfsdk tags and its fromAPI, toCreate,
//     toUpdate; Schema (withCommon for id, uuid, graphql_id, URLs; parentIDAttribute(description,
//     "<GraphQL type>") for a parent and refAttribute for another reference, their model fields refValue,
//     sent as .UUID(); caseInsensitiveEnum for enums; computedString for what the service assigns); then
//     Create, Read, Update, Delete, ImportState. Read addresses the object by restID(state.ID). Each of Create, Read and Update starts with
//     `defer r.identifyCreated(ctx, resp)` (identifyRead, identifyUpdated) and bounds its calls with
//     `ctx, cancel := r.timeout(ctx, opCreate)`; failures go through addAPIError, Read's through
//     r.readFailed (the only way a resource leaves state) and Delete's through r.deleteFailed; ImportState
//     splits its ID with r.importParts(ctx, req, resp, uuidPart("<cluster id>", "Cluster"), keyPart("<key>")),
//     each part naming the GraphQL types whose IDs it accepts.
//     An association (an object linked under a parent) is instead a model, its fromAPI and an
//     associationKind, returned by newAssociation(kind).
//     A type the official provider has too: every attribute of its schema (testdata/official-schema.json)
//     exists here (TestSchemaCoversOfficialProvider lists what is missing); attributes only its GraphQL API
//     sets are declared with newResourceBase(...).withGraphQLOnly("emoji", ...) and graphQLOnlyString; the
//     schema's Version is above its (`Version: 1`, or its version + 1) and UpgradeState returns
//     upgraders(ctx, r, stateMoves{refs: [...the reference attributes...]}), with an official or ours
//     function for what the common steps do not cover (see upgrade.go).
//  3. Register New<Name>Resource in provider.go's Resources.
//  4. A data source: <name>_data_source.go embedding dataSourceBase, its attributes written once in a
//     <name>DataAttributes function that the plural data source reuses through listOf and listItems;
//     register it in DataSources.
//  5. A list resource, in the area's *_list_resources.go: a namedList (found by name in one listing) or a
//     childList (found under parents, with a parentKind), returning the resource's model as Read leaves
//     it; register it in ListResources.
//  6. Tests, against a fresh emulator each (newTestEnv): in <name>_resource_test.go, registerTestKind in
//     init (the emulator's Kind and store key, and get and delete for live runs), then
//     TestAcc<Name>Resource_basic (create, importSteps, update in place, replacement, with CheckDestroy)
//     and _disappears (e.disappears). Add the type's row to identityCases (identity_test.go) and its
//     list resource's to queryCases (query_test.go), which run under Terraform 1.15 (`make
//     testacc-next`). An association adds its row to associationCases (association_test.go) for its
//     life-cycle test. A type the official provider has adds its row to migrationCases (migration_test.go):
//     an add method of officialWorkspace that creates the objects in the emulator (w.withCluster(),
//     w.withTeam() for what it needs) and calls w.add with the configuration in that provider's style and
//     the instance as its state stores it (officialInstance: its attributes, GraphQL IDs built with
//     graphQLID, version and without for an older schema version of it); the harness
//     (migration_kit_test.go) fills the rest of its schema from testdata/official-schema.json, writes the
//     state file, runs replace-provider and fails unless every plan is empty. Then rewrite
//     examples/migration, which holds every row (TestAccMigration_example -update-migration-example).
//     Earlier states of ours add rows to upgradeCases (upgrade_test.go).
//  7. Examples and docs: examples/resources/buildkite_<name>/resource.tf and import.sh (data sources:
//     examples/data-sources/buildkite_<name>/data-source.tf), then `make docs`, which writes docs/ from
//     the schemas and templates/.
package provider

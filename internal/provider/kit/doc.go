// Package kit is what the provider's types are built on: the one implementation of a resource type
// (ObjectKind, served by objectResource; associations are the same kind), the bases of data sources, list
// resources and actions, identities, timeouts, scopes, the ID rule, validators and plan modifiers, the
// words of errors, and the upgrade of earlier and official states. A type in internal/provider is a model,
// its mapping from the client's type and a descriptor on this package; the package cannot import
// internal/provider, so nothing here refers to a type. internal/provider's doc.go describes each file.
package kit

package acctest

import (
	"encoding/base64"
)

func PtrTo[T any](v T) *T { return &v }

// clusterGraphQLID is the GraphQL ID of Cluster 01234567-89ab-cdef-0123-456789abcdef, encoded by hand:
// printf 'Cluster---01234567-89ab-cdef-0123-456789abcdef' | base64 -w0
const (
	TestUUID         = "01234567-89ab-cdef-0123-456789abcdef"
	ClusterGraphQLID = "Q2x1c3Rlci0tLTAxMjM0NTY3LTg5YWItY2RlZi0wMTIzLTQ1Njc4OWFiY2RlZg=="
)

func B64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

const UnknownUUID = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"

// otherUUID is a second UUID for the upgrade cases.
const OtherUUID = "11111111-2222-4333-8444-555555555555"

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Unit tests of the state upgrades (upgrade.go), through the provider server as Terraform calls it: a state
// of an earlier version, ours or the official provider's, must come out in the current schema's shape.
// The acceptance tests of migration_test.go move whole workspaces; these pin the shapes of our own earlier
// states, which no other test writes.

// upgradeCase is a state of an earlier version and what some of its attributes must be after the upgrade.
type upgradeCase struct {
	name     string
	typeName string
	version  int64
	state    map[string]any
	want     map[string]any // attributes checked after the upgrade; nil means null
}

var upgradeCases = []upgradeCase{
	{
		name: "cluster, ours at version 0", typeName: "buildkite_cluster", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "name": "c",
			"description": nil, "emoji": nil, "color": nil, "url": "u", "web_url": "w"},
		want: map[string]any{"id": testUUID, "graphql_id": clusterGraphQLID, "url": "u", "description": nil},
	},
	{
		name: "cluster, the official provider's", typeName: "buildkite_cluster", version: 0,
		state: map[string]any{"id": clusterGraphQLID, "uuid": testUUID, "name": "c", "description": "d",
			"emoji": nil, "color": ""},
		want: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "description": "d", "color": nil, "url": nil},
	},
	{
		name: "cluster, the official provider's without uuid", typeName: "buildkite_cluster", version: 0,
		state: map[string]any{"id": clusterGraphQLID, "name": "c"},
		want:  map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID},
	},
	{
		name: "queue, ours at version 0", typeName: "buildkite_cluster_queue", version: 0,
		state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "Q", "cluster_id": testUUID, "key": "linux",
			"description": nil, "dispatch_paused": false, "dispatch_paused_note": nil, "url": "u", "web_url": "w"},
		want: map[string]any{"cluster_id": testUUID, "cluster_uuid": testUUID, "retry_agent_affinity": "prefer-warmest",
			"hosted_agents": nil, "dispatch_paused": false},
	},
	{
		name: "queue, the official provider's", typeName: "buildkite_cluster_queue", version: 0,
		state: map[string]any{"id": graphQLID("ClusterQueue", otherUUID), "uuid": otherUUID, "cluster_id": clusterGraphQLID,
			"cluster_uuid": testUUID, "key": "linux", "description": nil, "dispatch_paused": true, "retry_agent_affinity": "prefer-different",
			"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
		want: map[string]any{"id": otherUUID, "cluster_id": testUUID, "cluster_uuid": testUUID, "retry_agent_affinity": "prefer-different",
			"dispatch_paused": true, "graphql_id": graphQLID("ClusterQueue", otherUUID),
			"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
	},
	{
		name: "agent token, ours at version 0", typeName: "buildkite_cluster_agent_token", version: 0,
		state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "T", "cluster_id": testUUID, "description": "d",
			"allowed_ip_addresses": nil, "expires_at": nil, "token": "s", "url": "u"},
		want: map[string]any{"cluster_uuid": testUUID, "token": "s"},
	},
	{
		name: "agent token, the official provider's", typeName: "buildkite_cluster_agent_token", version: 0,
		state: map[string]any{"id": graphQLID("ClusterToken", otherUUID), "uuid": otherUUID, "cluster_id": clusterGraphQLID,
			"cluster_uuid": testUUID, "description": "d", "allowed_ip_addresses": []any{}, "token": "s"},
		want: map[string]any{"id": otherUUID, "cluster_id": testUUID, "allowed_ip_addresses": nil, "token": "s", "expires_at": nil},
	},
	{
		name: "default queue, ours at version 0", typeName: "buildkite_cluster_default_queue", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "cluster_id": testUUID, "queue_id": otherUUID},
		want:  map[string]any{"id": testUUID, "queue_id": otherUUID, "key": nil},
	},
	{
		name: "default queue, the official provider's", typeName: "buildkite_cluster_default_queue", version: 0,
		state: map[string]any{"id": clusterGraphQLID, "uuid": testUUID, "cluster_id": clusterGraphQLID,
			"queue_id": graphQLID("ClusterQueue", otherUUID), "key": "linux"},
		want: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "cluster_id": testUUID,
			"queue_id": otherUUID, "key": "linux"},
	},
	{
		name: "team, ours at version 0", typeName: "buildkite_team", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "T", "name": "n", "slug": "n", "description": "",
			"privacy": "visible", "default_team": false, "default_member_role": "member", "members_can_create_pipelines": true, "created_at": "c"},
		want: map[string]any{"members_can_create_pipelines": true, "members_can_create_suites": false, "members_can_create_registries": false,
			"members_can_destroy_registries": false, "members_can_destroy_packages": false, "description": ""},
	},
	{
		name: "team, the official provider's", typeName: "buildkite_team", version: 0,
		state: map[string]any{"id": graphQLID("Team", testUUID), "uuid": testUUID, "name": "n", "slug": "n", "description": "",
			"privacy": "SECRET", "default_team": true, "default_member_role": "MAINTAINER", "members_can_create_pipelines": false,
			"members_can_create_suites": true, "members_can_create_registries": false, "members_can_destroy_registries": true,
			"members_can_destroy_packages": false},
		want: map[string]any{"id": testUUID, "privacy": "SECRET", "description": "", "members_can_create_suites": true,
			"members_can_destroy_registries": true, "created_at": nil},
	},
	{
		name: "team member, the official provider's", typeName: "buildkite_team_member", version: 0,
		state: map[string]any{"id": graphQLID("TeamMember", testUUID), "uuid": testUUID, "team_id": graphQLID("Team", otherUUID),
			"user_id": graphQLID("User", testUUID), "role": "MEMBER"},
		want: map[string]any{"id": otherUUID + "/" + testUUID, "uuid": otherUUID + "/" + testUUID, "team_id": otherUUID,
			"user_id": testUUID, "graphql_id": graphQLID("TeamMember", testUUID), "role": "MEMBER"},
	},
	{
		name: "team member, ours at version 0", typeName: "buildkite_team_member", version: 0,
		state: map[string]any{"id": otherUUID + "/" + testUUID, "uuid": otherUUID + "/" + testUUID, "graphql_id": nil,
			"team_id": otherUUID, "user_id": testUUID, "role": "member", "user_name": "u"},
		want: map[string]any{"id": otherUUID + "/" + testUUID, "team_id": otherUUID, "user_name": "u"},
	},
	{
		name: "pipeline team, the official provider's", typeName: "buildkite_pipeline_team", version: 0,
		state: map[string]any{"id": graphQLID("TeamPipeline", testUUID), "uuid": testUUID, "team_id": graphQLID("Team", otherUUID),
			"pipeline_id": graphQLID("Pipeline", testUUID), "access_level": "READ_ONLY"},
		want: map[string]any{"id": otherUUID + "/" + testUUID, "pipeline_id": testUUID, "access_level": "READ_ONLY"},
	},
	{
		name: "test suite team, the official provider's", typeName: "buildkite_test_suite_team", version: 0,
		state: map[string]any{"id": graphQLID("TeamSuite", testUUID), "uuid": testUUID, "team_id": graphQLID("Team", otherUUID),
			"test_suite_id": graphQLID("Suite", testUUID), "access_level": "MANAGE_AND_READ"},
		want: map[string]any{"id": otherUUID + "/" + testUUID, "test_suite_id": testUUID},
	},
	{
		name: "pipeline, ours at version 0", typeName: "buildkite_pipeline", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "P", "name": "app", "slug": "app",
			"repository": "r", "steps": "steps: []", "cluster_id": otherUUID, "description": "", "tags": []any{},
			"provider_settings": map[string]any{"trigger_mode": "code", "build_branches": true}, "archived": false},
		want: map[string]any{"cluster_id": otherUUID, "cluster_name": nil, "description": "", "tags": []any{},
			"default_timeout_in_minutes": nil, "emoji": nil, "skip_intermediate_builds": nil, "allow_rebuilds": true,
			"provider_settings": settingsWith(map[string]any{"trigger_mode": "code", "build_branches": true})},
	},
	{
		name: "pipeline, the official provider's at version 1", typeName: "buildkite_pipeline", version: 1,
		state: map[string]any{"id": graphQLID("Pipeline", testUUID), "uuid": testUUID, "name": "app", "slug": "app",
			"repository": "r", "steps": "steps: []", "cluster_id": clusterGraphQLID, "cluster_name": "c", "description": "",
			"tags": []any{}, "default_team_id": graphQLID("Team", otherUUID), "default_timeout_in_minutes": 30,
			"skip_intermediate_builds_branch_filter": "", "emoji": ":x:", "visibility": "PRIVATE",
			"provider_settings": map[string]any{"trigger_mode": "code", "build_release_created": true}},
		want: map[string]any{"id": testUUID, "cluster_id": testUUID, "default_team_id": otherUUID, "cluster_name": "c",
			// Optional+Computed as the official provider has them: its "" and [] are kept, not nulled.
			"description": "", "tags": []any{}, "skip_intermediate_builds_branch_filter": "", "default_timeout_in_minutes": 30.0,
			"emoji": ":x:", "visibility": "PRIVATE", "archive_on_delete": nil,
			"provider_settings": settingsWith(map[string]any{"trigger_mode": "code", "build_release_created": true})},
	},
	{
		name: "pipeline, the official provider's at version 0", typeName: "buildkite_pipeline", version: 0,
		state: map[string]any{"id": graphQLID("Pipeline", testUUID), "name": "app", "slug": "app", "repository": "r",
			"steps": "steps: []", "provider_settings": []any{map[string]any{"trigger_mode": "none"}}},
		want: map[string]any{"id": testUUID, "uuid": testUUID, "provider_settings": settingsWith(map[string]any{"trigger_mode": "none"})},
	},
	{
		name: "pipeline, the official provider's at version 0 without settings", typeName: "buildkite_pipeline", version: 0,
		state: map[string]any{"id": graphQLID("Pipeline", testUUID), "name": "app", "slug": "app", "repository": "r",
			"steps": "steps: []", "provider_settings": []any{}},
		want: map[string]any{"id": testUUID, "provider_settings": nil},
	},
	{
		name: "pipeline template, the official provider's", typeName: "buildkite_pipeline_template", version: 0,
		state: map[string]any{"id": graphQLID("PipelineTemplate", testUUID), "uuid": testUUID, "name": "t",
			"configuration": "steps: []", "description": nil, "available": true},
		want: map[string]any{"id": testUUID, "available": true, "updated_at": nil},
	},
	{
		name: "rule, the official provider's", typeName: "buildkite_organization_rule", version: 0,
		state: map[string]any{"id": graphQLID("Rule", testUUID), "uuid": testUUID, "type": "pipeline.trigger_build.pipeline",
			"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d", "effect": "allow"},
		want: map[string]any{"id": testUUID, "value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d"},
	},
	{
		name: "rule, ours at version 0", typeName: "buildkite_organization_rule", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "R", "type": "pipeline.trigger_build.pipeline",
			"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "url": "u", "created_at": "c"},
		want: map[string]any{"id": testUUID, "description": nil, "url": "u"},
	},
	{
		name: "test suite, the official provider's", typeName: "buildkite_test_suite", version: 0,
		state: map[string]any{"id": graphQLID("Suite", testUUID), "uuid": testUUID, "name": "s", "slug": "s",
			"default_branch": "main", "team_owner_id": graphQLID("Team", otherUUID), "color": "", "application_name": nil,
			"oidc_policy": "p", "api_token": "t"},
		// color is Optional+Computed, as the official provider's: its "" (cleared) is kept, not turned into null.
		want: map[string]any{"id": testUUID, "team_owner_id": otherUUID, "color": "", "oidc_policy": "p", "api_token": "t"},
	},
	{
		name: "test suite, ours at version 0", typeName: "buildkite_test_suite", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "S", "name": "s", "slug": "s",
			"default_branch": "main", "team_owner_id": otherUUID, "api_token": "t", "url": "u", "web_url": "w"},
		want: map[string]any{"team_owner_id": otherUUID, "oidc_policy": nil, "api_token": "t"},
	},
	{
		name: "registry, the official provider's", typeName: "buildkite_registry", version: 0,
		state: map[string]any{"id": graphQLID("Registry", testUUID), "uuid": testUUID, "name": "g", "slug": "g",
			"ecosystem": "ruby", "public": false, "registry_type": "PACKAGE", "team_ids": []any{otherUUID}, "description": nil},
		want: map[string]any{"id": testUUID, "registry_type": "PACKAGE", "team_ids": []any{otherUUID}, "graphql_id": graphQLID("Registry", testUUID)},
	},
	{
		name: "registry, ours at version 0", typeName: "buildkite_registry", version: 0,
		state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "G", "name": "g", "slug": "g",
			"ecosystem": "ruby", "public": false, "team_ids": nil, "url": "u", "web_url": "w"},
		want: map[string]any{"id": testUUID, "registry_type": nil, "team_ids": nil},
	},
	{
		name: "schedule, the official provider's", typeName: "buildkite_pipeline_schedule", version: 0,
		state: map[string]any{"id": graphQLID("PipelineSchedule", otherUUID), "uuid": otherUUID,
			"pipeline_id": graphQLID("Pipeline", testUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
			"commit": "HEAD", "message": nil, "env": nil, "enabled": true},
		want: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": graphQLID("PipelineSchedule", otherUUID),
			"pipeline_id": testUUID, "env": map[string]any{}, "commit": "HEAD", "message": nil},
	},
	{
		name: "schedule, the official provider's with env", typeName: "buildkite_pipeline_schedule", version: 0,
		state: map[string]any{"id": graphQLID("PipelineSchedule", otherUUID), "uuid": otherUUID,
			"pipeline_id": graphQLID("Pipeline", testUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
			"commit": "HEAD", "env": map[string]any{"FULL": "1"}, "enabled": false},
		want: map[string]any{"id": otherUUID, "env": map[string]any{"FULL": "1"}, "enabled": false},
	},
	{
		name: "schedule, ours at version 0", typeName: "buildkite_pipeline_schedule", version: 0,
		state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "S", "pipeline_id": "website",
			"label": "Nightly", "cronline": "@daily", "branch": "main", "commit": "HEAD", "message": nil,
			"env": map[string]any{}, "enabled": true},
		want: map[string]any{"id": otherUUID, "graphql_id": "S", "pipeline_id": "website", "env": map[string]any{}},
	},
	{
		name: "secret, the official provider's", typeName: "buildkite_cluster_secret", version: 0,
		state: map[string]any{"id": otherUUID, "cluster_id": testUUID, "key": "DEPLOY_KEY", "value": "s3cret",
			"value_wo": nil, "value_wo_version": nil, "description": "", "policy": nil, "created_at": "c", "updated_at": "u"},
		want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_id": testUUID, "value": "s3cret",
			"description": nil, "graphql_id": nil, "updated_at": "u"},
	},
	{
		name: "maintainer, the official provider's at version 1", typeName: "buildkite_cluster_maintainer", version: 1,
		state: map[string]any{"id": otherUUID, "cluster_uuid": testUUID, "user_uuid": nil, "team_uuid": otherUUID,
			"actor_uuid": otherUUID, "actor_type": "team", "actor_name": "Ops", "actor_email": nil, "actor_slug": "ops"},
		want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_uuid": testUUID, "team_uuid": otherUUID,
			"user_uuid": nil, "actor_slug": "ops"},
	},
	{
		name: "maintainer, the official provider's at version 0", typeName: "buildkite_cluster_maintainer", version: 0,
		state: map[string]any{"id": otherUUID, "cluster_id": testUUID, "user_id": otherUUID, "team_id": nil,
			"actor_id": otherUUID, "actor_type": "user", "actor_name": "Ann", "actor_email": "ann@example.com", "actor_slug": nil},
		want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_uuid": testUUID, "user_uuid": otherUUID,
			"team_uuid": nil, "actor_uuid": otherUUID, "actor_email": "ann@example.com"},
	},
}

// settingsWith is provider_settings with the given keys set and every other key of the 44 null.
func settingsWith(set map[string]any) map[string]any {
	out := map[string]any{}
	for _, s := range pipelineSettings {
		out[s.key] = set[s.key]
	}
	return out
}

func TestUpgradeResourceState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range upgradeCases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.state)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: tc.typeName, Version: tc.version, RawState: &tfprotov6.RawState{JSON: raw},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range resp.Diagnostics {
				t.Fatalf("%s: %s", d.Summary, d.Detail)
			}
			typ := schemas.ResourceSchemas[tc.typeName].ValueType()
			v, err := resp.UpgradedState.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := goValue(v).(map[string]any)
			if !ok {
				t.Fatalf("upgraded state %v is not an object", v)
			}
			for name, want := range tc.want {
				if !reflect.DeepEqual(got[name], want) {
					t.Errorf("%s = %#v, want %#v", name, got[name], want)
				}
			}
		})
	}
}

// goValue converts a Terraform value to Go: objects and maps to map[string]any, lists and sets to []any,
// numbers to float64, null to nil.
func goValue(v tftypes.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		f, _ := n.Float64()
		return f
	case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = goValue(e)
		}
		return out
	default:
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return fmt.Sprintf("unconvertible %s", v.Type())
		}
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = goValue(e)
		}
		return out
	}
}

// refusedUpgradeCases are official states the upgrade refuses (issue 27): what the error must say.
var refusedUpgradeCases = []struct {
	name     string
	typeName string
	version  int64
	state    map[string]any
	wants    []string
}{
	{
		name: "cluster id unreadable, no uuid", typeName: "buildkite_cluster",
		state: map[string]any{"id": b64("Cluster---not-a-uuid"), "name": "c"},
		wants: []string{`name "c"`, "id must be a UUID", "terraform state rm"},
	},
	{
		name: "cluster id a number", typeName: "buildkite_cluster",
		state: map[string]any{"id": json.Number("7"), "uuid": testUUID, "name": "c"},
		wants: []string{"id must be a string ID, got 7"},
	},
	{
		name: "cluster id of another type", typeName: "buildkite_cluster",
		state: map[string]any{"id": graphQLID("Pipeline", testUUID), "uuid": testUUID, "name": "c"},
		wants: []string{"id must name a Cluster", "the GraphQL ID of a Pipeline"},
	},
	{
		name: "cluster id and uuid disagree", typeName: "buildkite_cluster",
		state: map[string]any{"id": clusterGraphQLID, "uuid": otherUUID, "name": "c"},
		wants: []string{"names the object " + testUUID + ", and uuid names another, " + otherUUID},
	},
	{
		name: "cluster uuid unreadable", typeName: "buildkite_cluster",
		state: map[string]any{"id": clusterGraphQLID, "uuid": "c-1", "name": "c"},
		wants: []string{`uuid must be a UUID, got "c-1"`},
	},
	{
		name: "cluster without id", typeName: "buildkite_cluster",
		state: map[string]any{"name": "c"},
		wants: []string{"id is missing"},
	},
	{
		name: "cluster name of another JSON type", typeName: "buildkite_cluster",
		state: map[string]any{"id": clusterGraphQLID, "name": []any{"c"}},
		wants: []string{"does not fit this resource's schema"},
	},
	{
		name: "queue without key or cluster_id", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": graphQLID("ClusterQueue", otherUUID), "uuid": otherUUID},
		wants: []string{"cluster_id is missing", "key is missing"},
	},
	{
		name: "queue cluster_id of a pipeline", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": graphQLID("ClusterQueue", otherUUID), "cluster_id": graphQLID("Pipeline", testUUID), "key": "k"},
		wants: []string{"cluster_id must name a Cluster"},
	},
	{
		name: "queue cluster_id and cluster_uuid disagree", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": graphQLID("ClusterQueue", otherUUID), "cluster_id": clusterGraphQLID, "cluster_uuid": otherUUID, "key": "k"},
		wants: []string{"cluster_id names the object " + testUUID + ", and cluster_uuid names another, " + otherUUID},
	},
	{
		name: "token cluster_uuid unreadable", typeName: "buildkite_cluster_agent_token",
		state: map[string]any{"id": graphQLID("ClusterToken", otherUUID), "cluster_id": clusterGraphQLID, "cluster_uuid": "\x95", "description": "d"},
		wants: []string{"cluster_uuid must be a UUID"},
	},
	{
		name: "pipeline id and uuid disagree", typeName: "buildkite_pipeline", version: 1,
		state: map[string]any{"id": graphQLID("Pipeline", testUUID), "uuid": otherUUID, "name": "app", "repository": "r"},
		wants: []string{"and uuid names another"},
	},
	{
		name: "registry team_ids element of another type", typeName: "buildkite_registry",
		state: map[string]any{"id": graphQLID("Registry", testUUID), "name": "g", "ecosystem": "ruby",
			"team_ids": []any{otherUUID, graphQLID("Pipeline", testUUID)}},
		wants: []string{"team_ids[1] must name a Team"},
	},
	{
		name: "team member side unreadable", typeName: "buildkite_team_member",
		state: map[string]any{"id": graphQLID("TeamMember", testUUID), "team_id": "platform", "user_id": graphQLID("User", testUUID), "role": "MEMBER"},
		wants: []string{`team_id must be a UUID`, `"platform"`},
	},
	{
		name: "team member without its user", typeName: "buildkite_team_member",
		state: map[string]any{"id": graphQLID("TeamMember", testUUID), "team_id": graphQLID("Team", otherUUID), "role": "MEMBER"},
		wants: []string{"do not name the association's two sides"},
	},
	{
		name: "schedule pipeline_id of a cluster", typeName: "buildkite_pipeline_schedule",
		state: map[string]any{"id": graphQLID("PipelineSchedule", otherUUID), "pipeline_id": clusterGraphQLID, "label": "l",
			"cronline": "@daily", "branch": "main"},
		wants: []string{"pipeline_id must name a Pipeline"},
	},
}

func TestUpgradeResourceState_refused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	for _, tc := range refusedUpgradeCases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.state)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: tc.typeName, Version: tc.version, RawState: &tfprotov6.RawState{JSON: raw},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Unreadable Resource State" {
				t.Fatalf("diagnostics = %+v, want one Unreadable Resource State", resp.Diagnostics)
			}
			if resp.UpgradedState != nil {
				t.Errorf("an upgraded state came with the error: %v", resp.UpgradedState)
			}
			detail := resp.Diagnostics[0].Detail
			for _, want := range append([]string{tc.typeName}, tc.wants...) {
				if !strings.Contains(detail, want) {
					t.Errorf("the error does not say %q:\n%s", want, detail)
				}
			}
		})
	}
}

// The official provider's "" for an attribute that is Optional and Computed (or has a default, which makes
// it computed) is kept: the defaults of the shared types are "" (issue 24), and null would plan a change.
// An optional attribute that is not computed becomes null, as this provider writes it.
func TestMoveState_keepsEmptyOfComputed(t *testing.T) {
	t.Parallel()
	current := schema.Schema{Version: 1, Attributes: map[string]schema.Attribute{
		"id":       schema.StringAttribute{Computed: true},
		"defaults": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("")},
		"computed": schema.StringAttribute{Optional: true, Computed: true},
		"optional": schema.StringAttribute{Optional: true},
		"list":     schema.ListAttribute{Optional: true, ElementType: types.StringType},
	}}
	raw, _ := json.Marshal(map[string]any{"id": testUUID, "defaults": "", "computed": "", "optional": "", "list": []any{}})
	out, err := moveState(context.Background(), "buildkite_thing", current, stateMoves{}, 0, &tfprotov6.RawState{JSON: raw})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": testUUID, "defaults": "", "computed": "", "optional": nil, "list": nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moved state = %v, want %v", got, want)
	}
}

// FuzzUpgradeOfficialState: random official-shape states, each one of upgradeCases' states of the official
// provider with one attribute replaced, dropped, or given another JSON type, go through the provider
// server's UpgradeResourceState as Terraform sends them. Whatever they hold, the upgrade never panics and
// either fails with an error that names the resource type, or yields a state of the current schema whose
// IDs are the ones the input held: its `id` the UUID the input's `id` encodes (or, for an association, its
// two sides), its `uuid` equal to it, each reference the UUID its input encodes or the key it held. An
// input `id` that is not a UUID or a GraphQL ID of the type the case's own `id` has must fail.

// fuzzUpgradeServer is the provider server the fuzz target upgrades through, and its schemas, built once.
var fuzzUpgradeServer = sync.OnceValues(func() (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		panic(err)
	}
	return server, schemas
})

// officialUpgradeCases are the upgradeCases of the official provider's states (without graphql_id).
func officialUpgradeCases() []upgradeCase {
	var out []upgradeCase
	for _, tc := range upgradeCases {
		if _, ours := tc.state[attrGraphQLID]; !ours {
			out = append(out, tc)
		}
	}
	return out
}

// fuzzValueKinds are how the fuzzed value is put into the state.
const (
	fuzzString = iota // the value as a string
	fuzzDrop          // the attribute left out
	fuzzNull          // null
	fuzzNumber        // a JSON number (the value's length)
	fuzzList          // a list holding the value
	fuzzKinds
)

func FuzzUpgradeOfficialState(f *testing.F) {
	cases := officialUpgradeCases()
	hostile := []string{
		"", "12345", "Q2x1c3Rlci0tLT%%%", b64("Cluster---not-a-uuid"), b64("cluster---" + testUUID), b64("Widget---" + testUUID),
		graphQLID("Pipeline", testUUID), graphQLID("Cluster", otherUUID), otherUUID, strings.ToUpper(testUUID), "platform",
		strings.TrimRight(graphQLID("Team", otherUUID), "="), testUUID + "/" + otherUUID, "\u00a0" + testUUID,
	}
	// Seeds: every hostile form once as an id, and each case's ID attributes spoiled each way; few enough
	// that `make fuzz` gets past its baseline quickly.
	for k, v := range hostile {
		f.Add(uint8(k), uint8(0), uint8(fuzzString), v)
	}
	for i, tc := range cases {
		for j, name := range fuzzAttrNames(tc) {
			if name != attrID && name != attrUUID && !strings.HasSuffix(name, "_id") && !strings.HasSuffix(name, "_uuid") &&
				!strings.HasSuffix(name, "_ids") {
				continue
			}
			for kind := range fuzzKinds {
				f.Add(uint8(i), uint8(j), uint8(kind), hostile[(i+j+kind)%len(hostile)])
			}
		}
	}
	f.Fuzz(func(t *testing.T, caseIndex, attrIndex, kind uint8, value string) {
		tc := cases[int(caseIndex)%len(cases)]
		names := fuzzAttrNames(tc)
		name := names[int(attrIndex)%len(names)]
		state := make(map[string]any, len(tc.state))
		for k, v := range tc.state {
			state[k] = v
		}
		switch kind % fuzzKinds {
		case fuzzString:
			state[name] = value
		case fuzzDrop:
			delete(state, name)
		case fuzzNull:
			state[name] = nil
		case fuzzNumber:
			state[name] = len(value)
		case fuzzList:
			state[name] = []any{value}
		}
		raw, err := json.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		// What Terraform sends is what the JSON holds (invalid UTF-8 replaced): compare with that.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		state = nil
		if err := dec.Decode(&state); err != nil {
			t.Fatal(err)
		}
		server, schemas := fuzzUpgradeServer()
		resp, err := server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
			TypeName: tc.typeName, Version: tc.version, RawState: &tfprotov6.RawState{JSON: raw},
		})
		if err != nil {
			t.Fatalf("%s: UpgradeResourceState: %v", tc.name, err)
		}
		if len(resp.Diagnostics) > 0 {
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError && !strings.Contains(d.Detail, tc.typeName) &&
					!strings.Contains(d.Detail, "schema version") {
					t.Fatalf("%s, %s = %#v: the error does not name the resource: %s: %s", tc.name, name, state[name], d.Summary, d.Detail)
				}
			}
			return
		}
		v, err := resp.UpgradedState.Unmarshal(schemas.ResourceSchemas[tc.typeName].ValueType())
		if err != nil {
			t.Fatalf("%s: the upgraded state does not fit the schema: %v", tc.name, err)
		}
		got, ok := goValue(v).(map[string]any)
		if !ok {
			t.Fatalf("%s: the upgraded state %v is not an object", tc.name, v)
		}
		expectSameIDs(t, tc, state, got)
	})
}

// fuzzAttrNames are the attributes a case's state holds, and id and uuid, in a stable order.
func fuzzAttrNames(tc upgradeCase) []string {
	names := []string{attrID, attrUUID}
	for k := range tc.state {
		if k != attrID && k != attrUUID {
			names = append(names, k)
		}
	}
	slices.Sort(names[2:])
	return names
}

// expectSameIDs fails the test unless the upgraded state got names the objects the input state in did.
func expectSameIDs(t *testing.T, tc upgradeCase, in, got map[string]any) {
	t.Helper()
	id, _ := got[attrID].(string)
	inID, _ := in[attrID].(string)
	wantType, _, _ := decodeGraphQLID(tc.state[attrID].(string))
	switch {
	case strings.Contains(id, "/"): // an association: named by its two sides, as the input's references hold them
		for _, side := range strings.Split(id, "/") {
			if !isUUID(side) {
				t.Fatalf("%s: the upgraded id %q is not made of UUIDs (input %v)", tc.name, id, in)
			}
		}
	case inID == "": // no id: the uuid beside it names the object
		if u, _ := in[attrUUID].(string); !isUUID(u) || id != strings.ToLower(u) {
			t.Fatalf("%s: input without an id (uuid %#v) was upgraded to id %q", tc.name, in[attrUUID], id)
		}
	case isUUID(inID):
		if id != strings.ToLower(inID) {
			t.Fatalf("%s: input id %q became %q", tc.name, inID, id)
		}
	default:
		typ, uuid, ok := decodeGraphQLID(inID)
		switch {
		case !ok:
			t.Fatalf("%s: input id %#v, which names nothing, was upgraded to %q", tc.name, in[attrID], id)
		case wantType != "" && typ != wantType:
			t.Fatalf("%s: input id %q, a %s's GraphQL ID, was taken for a %s's (%q)", tc.name, inID, typ, wantType, id)
		case id != strings.ToLower(uuid):
			t.Fatalf("%s: input id %q (%s) became %q", tc.name, inID, uuid, id)
		}
	}
	if u, ok := in[attrUUID].(string); ok && u != "" && !strings.Contains(id, "/") && !strings.EqualFold(u, id) {
		t.Fatalf("%s: input uuid %q beside id %q was upgraded to id %q", tc.name, u, inID, id)
	}
	for name, v := range in {
		inRef, isString := v.(string)
		isRef := strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_uuid")
		if name == attrID || name == attrUUID || !isString || !isRef {
			continue
		}
		out, _ := got[name].(string)
		if out == "" || out == inRef {
			continue
		}
		if _, uuid, ok := decodeGraphQLID(inRef); ok && strings.EqualFold(out, uuid) {
			continue
		}
		if isUUID(inRef) && strings.EqualFold(out, inRef) {
			continue
		}
		t.Fatalf("%s: reference %s %q was upgraded to %q, another object", tc.name, name, inRef, out)
	}
}

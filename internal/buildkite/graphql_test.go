package buildkite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// Operations for the request path's tests: a query, a create (not repeatable) and a set (repeatable).
var (
	testQueryOp  = operation{name: "getThing", document: `query getThing($id: ID!) { node(id: $id) { id } }`, repeatable: true}
	testCreateOp = operation{name: "createThing", document: `mutation createThing($d: String) { thingCreate(input: {description: $d}) { tokenValue } }`}
	testSetOp    = operation{name: "setThing", document: `mutation setThing($v: Boolean!) { thingSet(input: {value: $v}) { value } }`, repeatable: true}
)

type testNode struct {
	Node *struct {
		ID string `json:"id"`
	} `json:"node"`
}

type testCreated struct {
	ThingCreate struct {
		TokenValue string `json:"tokenValue"`
	} `json:"thingCreate"`
}

// newGraphQLClient builds a test client whose REST origin is restURL and whose GraphQL endpoint is
// graphqlURL + "/v1".
func newGraphQLClient(t *testing.T, restURL, graphqlURL string, mods ...func(*Config)) *Client {
	t.Helper()
	return newTestClient(t, restURL, append([]func(*Config){func(c *Config) { c.GraphQLURL = graphqlURL + "/v1" }}, mods...)...)
}

// TestGraphQL_request: a query is one POST to the GraphQL endpoint with the document, the variables and the
// operation's name, authenticated with the API token, and its data decoded into the typed result.
func TestGraphQL_request(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"data":{"node":{"id":"VGhpbmctLS0x"}}}`))
	c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL)
	got, err := gqlQuery[testNode](context.Background(), c, testQueryOp, map[string]any{"id": "VGhpbmctLS0x"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Node == nil || got.Node.ID != "VGhpbmctLS0x" {
		t.Fatalf("node = %+v", got.Node)
	}
	req := s.only(t)
	assertRequest(t, req, http.MethodPost, "/v1", `{"query":`+jsonString(testQueryOp.document)+`,"variables":{"id":"VGhpbmctLS0x"},"operationName":"getThing"}`)
	if h := req.Header.Get("Authorization"); h != "Bearer test-token" {
		t.Errorf("Authorization = %q", h)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestGraphQL_retries: a query and a repeatable mutation are sent again after a 502 or a lost connection; a
// create is not (its outcome is unknown: the service may have acted), except after a throttle, which the
// service answers before acting.
func TestGraphQL_retries(t *testing.T) {
	ok := map[operation]string{
		testQueryOp:  `{"data":{"node":{"id":"x"}}}`,
		testCreateOp: `{"data":{"thingCreate":{"tokenValue":"bkat_x"}}}`,
		testSetOp:    `{"data":{"thingSet":{"value":true}}}`,
	}
	failures := map[string]http.HandlerFunc{
		"502":       respond(http.StatusBadGateway, `<html>Bad Gateway</html>`),
		"hang up":   hangUp,
		"null data": respond(http.StatusOK, `{"data":null}`),
	}
	for _, op := range []operation{testQueryOp, testCreateOp, testSetOp} {
		for name, fail := range failures {
			t.Run(op.name+" after "+name, func(t *testing.T) {
				var n atomic.Int32
				s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
					if n.Add(1) == 1 {
						fail(w, r)
						return
					}
					respond(http.StatusOK, ok[op])(w, r)
				})
				c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL)
				_, err := graphQL[json.RawMessage](context.Background(), c, op, nil)
				if op.repeatable {
					if err != nil || s.count() != 2 {
						t.Fatalf("err = %v after %d requests; want success on the second", err, s.count())
					}
					return
				}
				if !isUnknownOutcome(err) || s.count() != 1 {
					t.Fatalf("err = %v (unknown outcome: %v) after %d requests; want one request and an unknown outcome", err, isUnknownOutcome(err), s.count())
				}
			})
		}
		t.Run(op.name+" after a throttle", func(t *testing.T) {
			var n atomic.Int32
			s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					respond(http.StatusOK, `{"data":null,"errors":[{"message":"Cluster creation is currently busy, please try again."}]}`)(w, r)
					return
				}
				respond(http.StatusOK, ok[op])(w, r)
			})
			c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL)
			if _, err := graphQL[json.RawMessage](context.Background(), c, op, nil); err != nil || s.count() != 2 {
				t.Fatalf("err = %v after %d requests; want success on the second", err, s.count())
			}
		})
	}
}

// TestGraphQL_errors: an answer with errors fails the call with a *GraphQLError that keeps each message and
// path (masked), is not retried, and counts as not found only when every error says so.
func TestGraphQL_errors(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"data":{"thingSet":null},"errors":[
		{"message":"Description is too long (token test-token)","path":["thingSet","input","description"],"locations":[{"line":1,"column":2}]},
		{"message":"input: Rule type is unknown"}]}`))
	c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL)
	_, err := gqlMutate[json.RawMessage](context.Background(), c, testSetOp, nil)
	var ge *GraphQLError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v (%T), want a *GraphQLError", err, err)
	}
	if s.count() != 1 {
		t.Errorf("%d requests: a refusal must not be sent again", s.count())
	}
	if len(ge.Errors) != 2 || ge.Operation != "setThing" {
		t.Fatalf("error = %+v", ge)
	}
	if got := ge.Errors[0].PathNames(); strings.Join(got, ".") != "thingSet.input.description" {
		t.Errorf("path = %v", got)
	}
	if strings.Contains(err.Error(), "test-token") {
		t.Errorf("error leaks the API token: %v", err)
	}
	want := "GraphQL setThing: thingSet.input.description: Description is too long (token ***); input: Rule type is unknown"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
	if IsNotFound(err) {
		t.Error("IsNotFound on a refusal")
	}

	nf := newStub(t, respond(http.StatusOK, `{"data":{"pipeline":null},"errors":[{"message":"No Pipeline found"}]}`))
	c = newGraphQLClient(t, "http://rest.invalid", nf.srv.URL)
	_, err = gqlQuery[json.RawMessage](context.Background(), c, testQueryOp, nil)
	if !IsNotFound(err) || !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v: want not found", err)
	}
}

// TestGraphQL_nullIsNotFound: the typed operations turn a null root field into an error IsNotFound reads.
func TestGraphQL_nullIsNotFound(t *testing.T) {
	c := newGraphQLClient(t, "http://rest.invalid", "http://graphql.invalid")
	err := c.graphQLNotFound("getThing", "thing x")
	if !IsNotFound(err) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v: want not found", err)
	}
	if want := "POST /v1 getThing: 404 thing x not found (the service answered null)"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

// TestGraphQL_tokenOnlyToItsOrigin: without a GraphQL endpoint nothing is sent anywhere; with one, GraphQL
// calls go there and REST calls to the REST origin only; a redirect to another origin is not followed, so
// the token never reaches it.
func TestGraphQL_tokenOnlyToItsOrigin(t *testing.T) {
	rest := newStub(t, respond(http.StatusOK, `{"id":"c1","name":"x"}`))
	elsewhere := newStub(t, respond(http.StatusOK, `{"data":{"node":{"id":"x"}}}`))

	c := newTestClient(t, rest.srv.URL)
	if _, err := gqlQuery[testNode](context.Background(), c, testQueryOp, nil); !errors.Is(err, ErrNoGraphQLURL) {
		t.Fatalf("err = %v, want ErrNoGraphQLURL", err)
	}
	if rest.count() != 0 || elsewhere.count() != 0 {
		t.Fatalf("a client without a GraphQL endpoint sent %d+%d requests", rest.count(), elsewhere.count())
	}

	moved := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.srv.URL+"/v1", http.StatusTemporaryRedirect)
	})
	c = newGraphQLClient(t, rest.srv.URL, moved.srv.URL)
	if _, err := gqlQuery[testNode](context.Background(), c, testQueryOp, nil); err == nil {
		t.Fatal("a redirect to another origin was followed")
	}
	if elsewhere.count() != 0 || rest.count() != 0 {
		t.Fatalf("the token reached another origin: %d requests elsewhere, %d on the REST origin", elsewhere.count(), rest.count())
	}
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if rest.count() != 1 || moved.count() != 1 {
		t.Errorf("REST call: %d requests to the REST origin, %d to the GraphQL one; want 1 and 1 (the earlier query)", rest.count(), moved.count())
	}
}

// TestGraphQL_logsMaskSecrets: an agent token's value in a create's answer, and the API token, appear in no
// log line; the DEBUG line names the operation.
func TestGraphQL_logsMaskSecrets(t *testing.T) {
	const secret = "agent-secret-value-1234"
	s := newStub(t, respond(http.StatusOK, `{"data":{"thingCreate":{"tokenValue":"`+secret+`","agentTokenEdge":{"node":{"token":"`+secret+`"}}}}}`))
	log := &recordingLogger{}
	c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL, func(c *Config) { c.Logger = log; c.Token = "bkua_api-token-value" })
	got, err := gqlMutate[testCreated](context.Background(), c, testCreateOp, map[string]any{"d": "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if got.ThingCreate.TokenValue != secret {
		t.Fatalf("tokenValue = %q: the caller must still get the secret", got.ThingCreate.TokenValue)
	}
	var sawDebug bool
	for _, l := range log.all() {
		text := fmt.Sprint(l.msg, l.fields)
		if strings.Contains(text, secret) || strings.Contains(text, "bkua_api-token-value") {
			t.Errorf("%s line leaks a secret: %s", l.level, text)
		}
		if l.level == "DEBUG" && l.fields["path"] == "/v1 createThing" {
			sawDebug = true
		}
	}
	if !sawDebug {
		t.Errorf("no DEBUG line names the operation: %v", log.all())
	}
}

// TestGraphQL_ownGate: a 429 from the GraphQL endpoint holds back GraphQL calls, not REST ones.
func TestGraphQL_ownGate(t *testing.T) {
	rest := newStub(t, respond(http.StatusOK, `{"id":"c1","name":"x"}`))
	gql := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit-Remaining", "0")
		w.Header().Set("RateLimit-Reset", "3000") // 30s at testUnit
		respond(http.StatusOK, `{"data":{"node":{"id":"x"}}}`)(w, r)
	})
	c := newGraphQLClient(t, rest.srv.URL, gql.srv.URL)
	if _, err := gqlQuery[testNode](context.Background(), c, testQueryOp, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*testUnit*10)
	defer cancel()
	if _, err := c.Clusters.Get(ctx, "c1"); err != nil {
		t.Fatalf("REST call held back by the GraphQL window: %v", err)
	}
}

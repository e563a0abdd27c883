package buildkite

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestError_decodesServiceBodies(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		message string
		fields  []FieldError
		is      func(error) bool
		text    string
	}{
		{
			name:    "validation message",
			status:  422,
			body:    `{"message":"Validation failed: Name can't be blank"}`,
			message: "Validation failed: Name can't be blank",
			is:      IsValidation,
			text:    "PUT /v2/organizations/acme/clusters/123: 422 Validation failed: Name can't be blank",
		},
		{
			name:    "validation with errors array",
			status:  422,
			body:    `{"message":"Validation Failed","errors":[{"field":"configuration","code":"invalid"},{"field":"name","code":"missing","message":"Name is required"}]}`,
			message: "Validation Failed",
			fields: []FieldError{
				{Field: "configuration", Code: "invalid"},
				{Field: "name", Code: "missing", Message: "Name is required"},
			},
			is:   IsValidation,
			text: "PUT /v2/organizations/acme/clusters/123: 422 Validation Failed (configuration invalid; name missing Name is required)",
		},
		{
			name:    "errors keyed by field",
			status:  422,
			body:    `{"message":"Validation failed","errors":{"name":["can't be blank"],"color":"is invalid"}}`,
			message: "Validation failed",
			fields:  []FieldError{{Field: "color", Message: "is invalid"}, {Field: "name", Message: "can't be blank"}},
			is:      IsValidation,
		},
		{
			name:    "not found",
			status:  404,
			body:    `{"message":"No cluster found"}`,
			message: "No cluster found",
			is:      IsNotFound,
		},
		{
			name:    "unauthorized",
			status:  401,
			body:    `{"message":"Authentication required. Please supply a valid API Access Token: https://buildkite.com/docs/apis/rest-api#authentication"}`,
			message: "Authentication required. Please supply a valid API Access Token: https://buildkite.com/docs/apis/rest-api#authentication",
			is:      IsUnauthorized,
		},
		{
			name:    "forbidden",
			status:  403,
			body:    `{"message":"Your access token doesn't have the write_clusters scope"}`,
			message: "Your access token doesn't have the write_clusters scope",
			is:      IsForbidden,
		},
		{
			name:    "non-JSON gateway page",
			status:  502,
			body:    "<html>\n  <body>\n    <h1>502 Bad Gateway</h1>\n  </body>\n</html>\n",
			message: "<html> <body> <h1>502 Bad Gateway</h1> </body> </html>",
			is:      func(err error) bool { return StatusCode(err) == 502 },
		},
		{
			name:   "empty body",
			status: 404,
			is:     IsNotFound,
			text:   "PUT /v2/organizations/acme/clusters/123: 404 Not Found",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStub(t, respond(tc.status, tc.body))
			// No retries so the 502 case answers at once.
			c := newTestClient(t, s.srv.URL, func(c *Config) { c.MaxRetries = -1 })
			_, err := c.Clusters.Update(context.Background(), "123", ClusterUpdate{Name: Value("")})
			var apiErr *Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if apiErr.StatusCode != tc.status || apiErr.Method != http.MethodPut || apiErr.Path != "/v2/organizations/acme/clusters/123" {
				t.Errorf("error = %+v", apiErr)
			}
			if apiErr.Message != tc.message {
				t.Errorf("Message = %q, want %q", apiErr.Message, tc.message)
			}
			if !reflect.DeepEqual(apiErr.Errors, tc.fields) {
				t.Errorf("Errors = %+v, want %+v", apiErr.Errors, tc.fields)
			}
			if !tc.is(err) {
				t.Errorf("status helper rejected %v", err)
			}
			if tc.text != "" && err.Error() != tc.text {
				t.Errorf("Error() = %q, want %q", err.Error(), tc.text)
			}
		})
	}
}

func TestError_snippetIsBounded(t *testing.T) {
	e := newError("GET", "/x", 500, []byte(strings.Repeat("é", 500)))
	if len(e.Message) > maxSnippet+len("…") || !strings.HasSuffix(e.Message, "…") {
		t.Errorf("snippet of %d bytes: %q", len(e.Message), e.Message)
	}
}

func TestError_helpersDecideOnStatusOnly(t *testing.T) {
	wrapped := fmt.Errorf("reading cluster: %w", &Error{StatusCode: 404, Message: "something else entirely"})
	if !IsNotFound(wrapped) || !errors.Is(wrapped, ErrNotFound) {
		t.Error("wrapped 404 not recognised")
	}
	if IsValidation(wrapped) || errors.Is(wrapped, ErrValidation) {
		t.Error("404 recognised as validation")
	}
	msgOnly := errors.New("404 No cluster found")
	if IsNotFound(msgOnly) || IsNotFound(nil) || StatusCode(msgOnly) != 0 {
		t.Error("helpers matched on message text or nil")
	}
	statuses := map[int]error{401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 422: ErrValidation, 429: ErrRateLimited}
	helpers := map[int]func(error) bool{401: IsUnauthorized, 403: IsForbidden, 404: IsNotFound, 422: IsValidation, 429: IsRateLimited}
	for status, sentinel := range statuses {
		for other := range statuses {
			err := &Error{StatusCode: other}
			if got, want := errors.Is(err, sentinel), other == status; got != want {
				t.Errorf("errors.Is(%d, %v) = %v", other, sentinel, got)
			}
			if got, want := helpers[status](err), other == status; got != want {
				t.Errorf("helper for %d on %d = %v", status, other, got)
			}
		}
	}
	if got := (&Error{StatusCode: http.StatusNotFound}).Error(); got != "404 Not Found" {
		t.Errorf("Error() without request = %q", got)
	}
}

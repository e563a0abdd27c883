package kit

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// TestDescribeError_keepsWhatFollowsTheAnswer: a create that met a 500 and then failed to find out whether
// it acted must not read as a bare 500.
func TestDescribeError_keepsWhatFollowsTheAnswer(t *testing.T) {
	apiErr := &buildkite.Error{StatusCode: 500, Method: "POST", Path: "/v2/x", Message: "Internal Server Error"}
	if got, want := DescribeError(apiErr), "the service answered 500: Internal Server Error"; got != want {
		t.Errorf("bare: got %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("%w; then finding out whether it was created: %w", apiErr, errors.New("GET /v2/x: boom"))
	want := "the service answered 500: Internal Server Error; then finding out whether it was created: GET /v2/x: boom"
	if got := DescribeError(wrapped); got != want {
		t.Errorf("wrapped: got %q, want %q", got, want)
	}
}

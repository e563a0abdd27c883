package kit

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// DurationValidator checks at plan time that a string is a positive Go duration ("90s", "5m").
type DurationValidator struct{}

var _ validator.String = DurationValidator{}

func (DurationValidator) Description(context.Context) string {
	return "must be a positive duration such as 90s or 5m"
}

func (v DurationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v DurationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// notBlankValidator refuses a string that is empty or only white space, which the service would store as a
// name nobody can see.
type notBlankValidator struct{}

var _ validator.String = notBlankValidator{}

// NotBlank returns the validator for required names.
func NotBlank() validator.String { return notBlankValidator{} }

func (notBlankValidator) Description(context.Context) string {
	return "must contain a character other than white space"
}

func (v notBlankValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v notBlankValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if req.ConfigValue.ValueString() == "" {
		// The summary the official provider's length validators give an empty string, which its tests expect.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value Length",
			fmt.Sprintf("%s %s, got an empty string.", req.Path, v.Description(ctx)))
		return
	}
	if strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Blank Value",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// Rfc3339Validator checks at plan time that a string is an RFC 3339 timestamp.
type Rfc3339Validator struct{}

var _ validator.String = Rfc3339Validator{}

func (Rfc3339Validator) Description(context.Context) string {
	return "must be an RFC 3339 timestamp such as 2030-01-01T00:00:00Z"
}

func (v Rfc3339Validator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v Rfc3339Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if _, err := time.Parse(time.RFC3339, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timestamp",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// oneCIDRValidator checks at plan time that a list element is one network in CIDR notation (or "", which
// the official provider's users write for "no allowlist"): two networks in one element, joined by a space,
// would reach the service as two and come back as two elements, an inconsistent result on every apply.
type oneCIDRValidator struct{}

var _ validator.String = oneCIDRValidator{}

// OneCIDR returns the validator of an allowlist's elements.
func OneCIDR() validator.String { return oneCIDRValidator{} }

func (oneCIDRValidator) Description(context.Context) string {
	return "must each be one IP network in CIDR notation (such as 10.0.0.0/8), one network per element"
}

func (v oneCIDRValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v oneCIDRValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) || req.ConfigValue.ValueString() == "" {
		return
	}
	s := req.ConfigValue.ValueString()
	if _, _, err := net.ParseCIDR(s); err == nil {
		return
	}
	detail := fmt.Sprintf("The elements of %s %s; got %q.", req.Path.ParentPath(), v.Description(ctx), s)
	if len(strings.Fields(s)) > 1 {
		detail += fmt.Sprintf(" It holds %d networks: write each as its own element, such as %s.",
			len(strings.Fields(s)), QuoteList(strings.Fields(s)))
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Network", detail)
}

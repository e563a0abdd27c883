package buildkite

import (
	"context"
	"errors"
	"net/http"
)

// CreateWebhook asks the service to create the webhook on the pipeline's repository (GitHub pipelines;
// 201). REST can neither read nor delete that webhook; the pipeline's Provider.WebhookURL is where it
// sends. A repository that has one already is refused with 422 ("Webhooks could not be created for your
// repository."), so repeating the call creates nothing more: it is repeatable, and the caller tells that
// refusal apart with IsWebhookExists.
func (s *PipelinesService) CreateWebhook(ctx context.Context, slug string) error {
	p, err := s.pipelinesPath(slug, "webhook")
	if err != nil {
		return err
	}
	_, err = s.client.send(ctx, call{method: http.MethodPost, path: p, repeatable: true})
	return err
}

// IsWebhookExists reports whether err is the service's refusal to create a repository webhook that may
// already exist.
func IsWebhookExists(err error) bool {
	var apiErr *Error
	return IsValidation(err) && errors.As(err, &apiErr) && apiErr.Message == "Webhooks could not be created for your repository."
}

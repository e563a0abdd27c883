package buildkite

import (
	"context"
	"errors"
	"fmt"
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

// The repository webhook through GraphQL (Buildkite's GraphQL schema, Pipeline.repository): REST only creates
// it; GraphQL reads it (the pipeline's repository provider's webhook, GitHub and GitHub Enterprise) and
// deletes it.

var (
	opGetPipelineWebhook = queryFile("getPipelineWebhook")
	// Deleting twice deletes nothing more: the second answers "No webhook found".
	opDeletePipelineWebhook = mutationFile("deletePipelineWebhook", true)
)

// getPipelineWebhookAnswer is the data of getPipelineWebhook's answer.
type getPipelineWebhookAnswer struct {
	Node *struct {
		ID         string `json:"id"`
		Repository *struct {
			Provider *struct {
				Webhook *RepositoryWebhook `json:"webhook"`
			} `json:"provider"`
		} `json:"repository"`
	} `json:"node"`
}

// deletePipelineWebhookAnswer is the data of deletePipelineWebhook's answer.
type deletePipelineWebhookAnswer struct {
	PipelineDeleteWebhook *struct {
		DeletedWebhookExternalID string `json:"deletedWebhookExternalId"`
	} `json:"pipelineDeleteWebhook"`
}

// RepositoryWebhook is the webhook on a pipeline's repository that the service made.
type RepositoryWebhook struct {
	// ExternalID is the webhook's ID on the repository's host (GitHub's numeric ID, as a string).
	ExternalID string `json:"externalId"`
	// URL is the webhook's page on the repository's host.
	URL string `json:"url"`
}

// Webhook returns the webhook on the repository of the pipeline with this GraphQL ID, or nil when the
// repository has none (or its host is not one the service makes webhooks on); a pipeline the service does
// not know is an error IsNotFound recognises.
func (s *PipelinesService) Webhook(ctx context.Context, pipelineGraphQLID string) (*RepositoryWebhook, error) {
	out, err := gqlQuery[getPipelineWebhookAnswer](ctx, s.client, opGetPipelineWebhook, map[string]string{"id": pipelineGraphQLID})
	if err != nil {
		return nil, err
	}
	if out.Node == nil || out.Node.ID == "" {
		return nil, s.client.graphQLNotFound(opGetPipelineWebhook.name, "pipeline "+pipelineGraphQLID)
	}
	if out.Node.Repository == nil || out.Node.Repository.Provider == nil {
		return nil, nil
	}
	return out.Node.Repository.Provider.Webhook, nil
}

// DeleteWebhook deletes the webhook on the repository of the pipeline with this GraphQL ID
// (pipelineDeleteWebhook) and returns its external ID. repository, when not "", must be the pipeline's.
// A repository without one is an error IsNotFound recognises ("No webhook found"). An answer with errors
// that still names the deleted webhook returns its ID with the error marked Acted (ActedWithErrors); one that
// names none is checked by reading the webhook.
func (s *PipelinesService) DeleteWebhook(ctx context.Context, pipelineGraphQLID, repository string) (string, error) {
	vars := struct {
		ID         string  `json:"id"`
		Repository *string `json:"repository,omitempty"`
	}{ID: pipelineGraphQLID}
	if repository != "" {
		vars.Repository = &repository
	}
	out, err := gqlMutate[deletePipelineWebhookAnswer](ctx, s.client, opDeletePipelineWebhook, vars)
	if err != nil {
		// An external ID in the answer is the webhook it deleted, whatever else the answer says.
		if out != nil && out.PipelineDeleteWebhook != nil && out.PipelineDeleteWebhook.DeletedWebhookExternalID != "" {
			_, err = actedWith(out.PipelineDeleteWebhook, err)
			return out.PipelineDeleteWebhook.DeletedWebhookExternalID, err
		}
		return "", err
	}
	if out.PipelineDeleteWebhook == nil {
		// A null answer without errors says nothing of the webhook: only reading it tells gone from still there.
		hook, rerr := s.Webhook(ctx, pipelineGraphQLID)
		switch {
		case rerr != nil:
			return "", rerr
		case hook != nil:
			return "", fmt.Errorf("GraphQL %s: the service answered null for the webhook of pipeline %s, which is still "+
				"there (%s): it was not deleted; try again", opDeletePipelineWebhook.name, pipelineGraphQLID, hook.ExternalID)
		}
		return "", s.client.graphQLNotFound(opDeletePipelineWebhook.name, "webhook of pipeline "+pipelineGraphQLID)
	}
	return out.PipelineDeleteWebhook.DeletedWebhookExternalID, nil
}

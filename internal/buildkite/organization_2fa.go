package buildkite

import "context"

// An organization's two-factor enforcement, which only Buildkite's GraphQL API reads and sets
// (https://buildkite.com/docs/apis/graphql/cookbooks/organizations). The field is nullable ("beta … not yet
// available to all organizations"): null reads as false, as the official provider reads it.

var (
	opGetOrganization2FA = queryFile("getOrganization2FA")
	opSetOrganization2FA = mutationFile("setOrganization2FA", true) // setting a value twice sets it once
)

// getOrganization2FAAnswer is the data of getOrganization2FA's answer.
type getOrganization2FAAnswer struct {
	Organization *organization2FA `json:"organization"`
}

// setOrganization2FAAnswer is the data of setOrganization2FA's answer.
type setOrganization2FAAnswer struct {
	Update *struct {
		Organization *organization2FA `json:"organization"`
	} `json:"organizationEnforceTwoFactorAuthenticationForMembersUpdate"`
}

type organization2FA struct {
	MembersRequireTwoFactorAuthentication *bool `json:"membersRequireTwoFactorAuthentication"`
}

// enforced reads null as false.
func (o *organization2FA) enforced() bool {
	return o.MembersRequireTwoFactorAuthentication != nil && *o.MembersRequireTwoFactorAuthentication
}

// TwoFactorEnforced reports whether the organization requires its members to use two-factor authentication.
func (s *OrganizationsService) TwoFactorEnforced(ctx context.Context) (bool, error) {
	out, err := gqlQuery[getOrganization2FAAnswer](ctx, s.client, opGetOrganization2FA, map[string]any{"slug": s.client.org})
	if err != nil {
		return false, err
	}
	if out.Organization == nil {
		return false, s.client.graphQLNotFound(opGetOrganization2FA.name, "organization "+s.client.org)
	}
	return out.Organization.enforced(), nil
}

// SetTwoFactorEnforced turns the requirement on or off and returns what the service then holds. An answer
// with errors that still carries the organization returns its value with the error marked Acted
// (ActedWithErrors).
func (s *OrganizationsService) SetTwoFactorEnforced(ctx context.Context, enforce bool) (bool, error) {
	orgID, err := s.client.organizationID(ctx)
	if err != nil {
		return false, err
	}
	out, err := gqlMutate[setOrganization2FAAnswer](ctx, s.client, opSetOrganization2FA, map[string]any{"organizationID": orgID, "value": enforce})
	if err != nil {
		// The organization in the answer holds the value the service now has, whatever else the answer says.
		if out != nil && out.Update != nil && out.Update.Organization != nil {
			_, err = actedWith(out.Update.Organization, err)
			return out.Update.Organization.enforced(), err
		}
		return false, err
	}
	if out.Update == nil || out.Update.Organization == nil {
		return false, s.client.graphQLNotFound(opSetOrganization2FA.name, "organization "+s.client.org)
	}
	return out.Update.Organization.enforced(), nil
}

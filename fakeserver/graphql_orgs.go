package fakeserver

// GraphQL: node(id:), organization(slug:, uuid:), users, and the organization's two-factor enforcement
// (graphql-subset.md §2.2). The token sees the organizations it was given, as over REST; an organization
// it does not see answers null, like an unknown one (§3.3, V #1175).
//
// Choices where the facts are silent (I): organization-level mutations need an organization
// administrator ("Forbidden: …" otherwise); a mutation naming an organization the token does not see
// fails with "No organization found"; membersRequireTwoFactorAuthentication is false until set (the
// service's beta null is not emulated).

func init() {
	gqlQueries["node"] = func(x *gqlExec, args map[string]any) (any, error) {
		typ, uuid, ok := parseGraphQLID(argString(args, "id"))
		if !ok {
			return nil, nil
		}
		if find, known := gqlNodes[typ]; known {
			return find(x, uuid), nil
		}
		return nil, nil
	}
	gqlQueries["organization"] = func(x *gqlExec, args map[string]any) (any, error) {
		if slug, ok := args["slug"].(string); ok {
			return x.orgObject(x.visibleOrg(slug)), nil
		}
		if uuid, ok := args["uuid"].(string); ok {
			return x.orgObject(x.visibleOrgByUUID(uuid)), nil
		}
		return nil, gqlError("Either slug or uuid must be provided")
	}
	gqlNodes["Organization"] = func(x *gqlExec, uuid string) any { return x.orgObject(x.visibleOrgByUUID(uuid)) }
	gqlNodes["User"] = func(x *gqlExec, uuid string) any {
		// A user is visible when they share an organization with the token.
		for slug := range x.tok.orgs {
			if x.st.isMember(slug, uuid) {
				return x.userObject(uuid)
			}
		}
		return nil
	}
	gqlMutations["organizationEnforceTwoFactorAuthenticationForMembersUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationId"))
		if err != nil {
			return nil, err
		}
		org.membersRequire2FA, _ = in["membersRequireTwoFactorAuthentication"].(bool)
		return withClientMutationID(in, "OrganizationEnforceTwoFactorAuthenticationForMembersUpdateMutationPayload",
			map[string]any{"organization": x.orgObject(org)}), nil
	}
}

// visibleOrg returns the organization slug when the token sees it, or nil.
func (x *gqlExec) visibleOrg(slug string) *orgRecord {
	if !x.tok.orgs[slug] {
		return nil
	}
	return x.st.orgs[slug]
}

// visibleOrgByUUID returns the organization with this UUID when the token sees it, or nil.
func (x *gqlExec) visibleOrgByUUID(uuid string) *orgRecord {
	for slug := range x.tok.orgs {
		if o := x.st.orgs[slug]; o != nil && o.id == uuid {
			return o
		}
	}
	return nil
}

// adminOrg returns the organization a mutation's organizationId names, when the token sees it and its
// user administers it.
func (x *gqlExec) adminOrg(id string) (*orgRecord, error) {
	org := x.visibleOrgByUUID(uuidOf(id, "Organization"))
	if org == nil {
		return nil, gqlError("No organization found")
	}
	if !x.st.isAdmin(org.slug, x.user.id) {
		return nil, gqlError("Forbidden: only an administrator of the organization may do this")
	}
	return org, nil
}

// orgObject is an Organization, or nil for nil.
func (x *gqlExec) orgObject(o *orgRecord) any {
	if o == nil {
		return nil
	}
	var ips any
	if s := x.st.apiSettingsOrDefault(o.slug).allowedIPs; s != "" {
		ips = s
	}
	fields := map[string]any{
		"id": o.graphqlID, "uuid": o.id, "slug": o.slug, "name": o.name,
		"membersRequireTwoFactorAuthentication": o.membersRequire2FA,
		"allowedApiIpAddresses":                 ips,
	}
	for name, fn := range gqlOrgFields {
		fields[name] = gqlResolver(func(args map[string]any) (any, error) { return fn(x, o, args) })
	}
	return gqlObject{typ: "Organization", fields: fields}
}

// gqlOrgFields are Organization's fields with arguments (its connections), added by the area files.
var gqlOrgFields = map[string]func(x *gqlExec, o *orgRecord, args map[string]any) (any, error){}

// userObject is the User with id, or nil.
func (x *gqlExec) userObject(id string) any {
	u, ok := x.st.users[id]
	if !ok {
		return nil
	}
	return gqlObject{typ: "User", fields: map[string]any{"id": u.graphqlID, "uuid": u.id, "name": u.name, "email": u.email}}
}

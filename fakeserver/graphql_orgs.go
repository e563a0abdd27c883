package fakeserver

import "strings"

// GraphQL: node(id:), organization(slug:, uuid:), users, the organization's two-factor enforcement
// (https://buildkite.com/docs/apis/graphql-api), its API IP allowlist
// (organizationApiIpAllowlistUpdate, over the REST API settings of api_settings.go) and its banner
// (Organization.banners, node(id:), organizationBannerUpsert and organizationBannerDelete, over banner.go's
// record, with its checks: administrators on the Enterprise plan). The token sees the organizations it was
// given, as over REST; an organization it does not see answers null, like an unknown one (V #1175).
//
// Choices where the facts are silent (I): organization-level mutations need an organization
// administrator ("Forbidden: …" otherwise); a mutation naming an organization the token does not see
// fails with "No organization found"; an allowlist that is not CIDRs is refused with the REST problem's
// words after "Validation failed: ", and a blank one removes the list; membersRequireTwoFactorAuthentication
// is false until set (the service's beta null is not emulated).

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
	gqlMutations["organizationApiIpAllowlistUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationID"))
		if err != nil {
			return nil, err
		}
		rec := x.st.apiSettings(org.slug)
		if rec.noIPAllowList {
			return nil, gqlError(errNoIPAllowList().body.(messageBody).Message)
		}
		cidrs, problems := readAllowedIPs(in.str("ipAddresses"))
		if len(problems) > 0 {
			return nil, gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
		}
		rec.allowedIPs = strings.Join(cidrs, " ")
		return withClientMutationID(in, "OrganizationAPIIPAllowlistUpdateMutationPayload",
			map[string]any{"organization": x.orgObject(org)}), nil
	}
	gqlOrgFields["banners"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		var banners []*bannerRecord
		if b := x.st.banners.byOrg[o.slug]; b != nil {
			banners = append(banners, b)
		}
		conn, err := gqlConnection("OrganizationBannerConnection", args, banners, bannerObject)
		if err != nil {
			return nil, err
		}
		c := conn.(gqlObject) // OrganizationBannerConnection has nodes and no count
		delete(c.fields, "count")
		var nodes []any
		for _, e := range c.fields["edges"].([]any) {
			nodes = append(nodes, e.(gqlObject).fields["node"])
		}
		c.fields["nodes"] = nonNil(nodes)
		return c, nil
	}
	gqlNodes["OrganizationBanner"] = func(x *gqlExec, uuid string) any {
		for slug := range x.tok.orgs {
			if b := x.st.banners.byOrg[slug]; b != nil && b.id == uuid && x.st.isAdmin(slug, x.user.id) {
				return bannerObject(b)
			}
		}
		return nil
	}
	gqlMutations["organizationBannerUpsert"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.bannerOrg(in)
		if err != nil {
			return nil, err
		}
		msg := in.str("message")
		var problems validationErrors
		checkBannerMessage(&problems, msg)
		if len(problems) > 0 {
			return nil, gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
		}
		return withClientMutationID(in, "OrganizationBannerUpsertPayload",
			map[string]any{"banner": bannerObject(x.st.upsertBanner(org.slug, msg))}), nil
	}
	gqlMutations["organizationBannerDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.bannerOrg(in)
		if err != nil {
			return nil, err
		}
		b := x.st.banners.byOrg[org.slug]
		if b == nil {
			return nil, gqlError("No banner found")
		}
		x.st.deleteBanner(b)
		return withClientMutationID(in, "OrganizationBannerDeletePayload",
			map[string]any{"deletedBannerId": graphQLID("OrganizationBanner", b.id)}), nil
	}
}

// bannerOrg returns the organization a banner mutation names, when the token's user may manage its banner.
func (x *gqlExec) bannerOrg(in gqlInput) (*orgRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	if aerr := x.st.bannerAllowed(*org, x.user); aerr != nil {
		return nil, gqlError(aerr.body.(messageBody).Message)
	}
	return org, nil
}

// bannerObject is an OrganizationBanner.
func bannerObject(b *bannerRecord) any {
	return gqlObject{typ: "OrganizationBanner", fields: map[string]any{
		"id": graphQLID("OrganizationBanner", b.id), "uuid": b.id, "message": b.message,
	}}
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

// MembersRequire2FA reports org's membersRequireTwoFactorAuthentication, and whether org exists. For tests.
func (st *Store) MembersRequire2FA(org string) (required, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	o, ok := st.orgs[org]
	if !ok {
		return false, false
	}
	return o.membersRequire2FA, true
}

// SetMembersRequire2FA sets org's two-factor enforcement, as a change made in the web interface would, and
// reports whether org exists.
func (st *Store) SetMembersRequire2FA(org string, required bool) bool {
	defer st.edit()()
	o, ok := st.orgs[org]
	if ok {
		o.membersRequire2FA = required
	}
	return ok
}

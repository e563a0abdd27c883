package buildkite

import (
	"context"
	"net/http"
	"testing"
)

func TestInvitationsAndMembers(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	created, err := c.Invitations.Create(ctx, InvitationCreate{Emails: []string{"new@example.com"}, Role: "admin", SSOMode: "optional"})
	if err != nil || len(created) != 1 || created[0].State != "pending" {
		t.Fatalf("create %+v, %v", created, err)
	}
	pending, err := c.Invitations.ListPending(ctx)
	if err != nil || len(pending) != 1 || pending[0].ID != created[0].ID {
		t.Fatalf("pending %+v, %v", pending, err)
	}
	m, err := c.Organizations.FindMemberByEmail(ctx, "SECOND-MEMBER@example.com")
	if err != nil || m == nil || m.Role != "member" || m.SSOMode == nil {
		t.Fatalf("find %+v, %v", m, err)
	}
	if none, err := c.Organizations.FindMemberByEmail(ctx, "nobody@example.com"); err != nil || none != nil {
		t.Fatalf("find nobody %+v, %v", none, err)
	}
	admin := "admin"
	if m, err = c.Organizations.UpdateMember(ctx, m.ID, MemberUpdate{Role: &admin}); err != nil || m.Role != "admin" {
		t.Fatalf("update %+v, %v", m, err)
	}
	if err := c.Invitations.Revoke(ctx, created[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Invitations.Get(ctx, created[0].ID); err != nil || got.State != "revoked" {
		t.Fatalf("revoked %+v, %v", got, err)
	}
	if err := c.Invitations.Revoke(ctx, created[0].ID); StatusCode(err) != http.StatusUnprocessableEntity {
		t.Fatalf("revoke again: %v", err)
	}
	if err := c.Organizations.RemoveMember(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Organizations.ReadMember(ctx, m.ID); !IsNotFound(err) {
		t.Fatalf("removed: %v", err)
	}
}

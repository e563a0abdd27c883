package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRunServesAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--org", "demo", "--token", "demo-token", "--quiet",
			"--rate-limit", "10"}, outW)
		_ = outW.Close()
	}()

	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v", err)
	}
	const prefix = "fakeserver listening on "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("first line %q", line)
	}
	base := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	if strings.HasSuffix(base, ":0") || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("base URL %q", base)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }() // nothing more is expected; never block the server

	req, _ := http.NewRequest(http.MethodPost, base+"/v2/organizations/demo/clusters", strings.NewReader(`{"name":"hand"}`))
	req.Header.Set("Authorization", "Bearer demo-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cluster map[string]any
	err = json.NewDecoder(resp.Body).Decode(&cluster)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated || cluster["name"] != "hand" {
		t.Fatalf("create: %d %v %v", resp.StatusCode, cluster, err)
	}
	if got := resp.Header.Get("RateLimit-Limit"); got != "10" {
		t.Fatalf("RateLimit-Limit %q, want 10", got)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		t.Fatal("still listening after shutdown")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--org", ""}, {"--listen", "not an address"}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

func TestBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"0.0.0.0:80":     "http://127.0.0.1:80",
		"[::]:9000":      "http://127.0.0.1:9000",
		"[::1]:9000":     "http://[::1]:9000",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := baseURL(tcp); got != want {
			t.Errorf("baseURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

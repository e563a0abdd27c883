package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ociDescriptor, ociIndex, ociManifest and ociConfig are the parts of an OCI image layout the test reads
// (read with the standard library only: the image builder's library is not this module's dependency).
type ociDescriptor struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
	Platform  *struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
	} `json:"platform"`
}

type ociIndex struct {
	Manifests []ociDescriptor `json:"manifests"`
}

type ociManifest struct {
	Config ociDescriptor   `json:"config"`
	Layers []ociDescriptor `json:"layers"`
}

type ociConfig struct {
	Architecture string    `json:"architecture"`
	Created      time.Time `json:"created"`
	Config       struct {
		Entrypoint   []string            `json:"Entrypoint"`
		Cmd          []string            `json:"Cmd"`
		Env          []string            `json:"Env"`
		User         string              `json:"User"`
		ExposedPorts map[string]struct{} `json:"ExposedPorts"`
		Volumes      map[string]struct{} `json:"Volumes"`
	} `json:"config"`
}

// TestImageStartsWithoutADaemon builds the emulator's OCI image for this machine's platform with
// tools/image (as make image does for every platform), reads its layout, unpacks its layers, and runs
// the binary it finds with the image's entrypoint, environment and user (in a chroot of the unpacked
// layers when the test runs as root, as a container would), then talks to it and finds its state file
// under the declared volume.
func TestImageStartsWithoutADaemon(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("SKIPPED LOUDLY: the image is built for linux/amd64 and linux/arm64 only; this is %s/%s, whose binary the image does not hold", runtime.GOOS, runtime.GOARCH)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "image")
	build := exec.Command("go", "run", ".", "--src", root, "--out", out,
		"--version", "test", "--platforms", "linux/"+runtime.GOARCH)
	build.Dir = filepath.Join(root, "tools", "image")
	build.Env = append(os.Environ(), "GOWORK=off", "SOURCE_DATE_EPOCH="+strconv.FormatInt(imageEpoch, 10))
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the image: %v\n%s", err, b)
	}

	cfg, layers := readImage(t, out, runtime.GOARCH)
	if want := time.Unix(imageEpoch, 0).UTC(); !cfg.Created.Equal(want) {
		t.Errorf("the image was created %v, not at SOURCE_DATE_EPOCH (%v)", cfg.Created, want)
	}
	for _, l := range layers {
		checkStrictTar(t, l)
	}
	c := cfg.Config
	if c.User == "" || strings.HasPrefix(c.User, "0") || strings.HasPrefix(c.User, "root") {
		t.Fatalf("the image runs as %q, not as a non-root user", c.User)
	}
	if len(c.ExposedPorts) != 1 {
		t.Fatalf("the image exposes %v, want one port", c.ExposedPorts)
	}
	env := map[string]string{}
	for _, kv := range c.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	stateFile := env["BUILDKITE_EMULATOR_STATE_FILE"]
	if _, ok := c.Volumes[path.Dir(stateFile)]; stateFile == "" || !ok {
		t.Fatalf("the state file %q is not under a declared volume %v", stateFile, c.Volumes)
	}
	if i := strings.LastIndex(env["BUILDKITE_EMULATOR_LISTEN"], ":"); i < 0 {
		t.Fatalf("BUILDKITE_EMULATOR_LISTEN %q names no port", env["BUILDKITE_EMULATOR_LISTEN"])
	} else if _, ok := c.ExposedPorts[env["BUILDKITE_EMULATOR_LISTEN"][i+1:]+"/tcp"]; !ok {
		t.Fatalf("it listens on %q, which is not the exposed port %v", env["BUILDKITE_EMULATOR_LISTEN"], c.ExposedPorts)
	}

	rootfs := filepath.Join(t.TempDir(), "rootfs")
	for _, l := range layers {
		unpackLayer(t, l, rootfs)
	}
	uid, gid := parseUser(t, c.User)
	args := append(append([]string{}, c.Entrypoint...), c.Cmd...)
	cmd := exec.Command(filepath.Join(rootfs, args[0]), args[1:]...)
	cmd.Env = append(slices.Clone(c.Env), "BUILDKITE_EMULATOR_LISTEN=127.0.0.1:0") // a free port here: 8080 may be taken on this machine
	hostStateFile := filepath.Join(rootfs, stateFile)
	if os.Geteuid() == 0 {
		cmd.Path, cmd.Args[0] = args[0], args[0]
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootfs, Credential: &syscall.Credential{Uid: uid, Gid: gid}}
		cmd.Dir = "/"
	} else {
		t.Logf("NOT ROOT: the binary runs as this user (%d), not the image's %s, and without a chroot; the state file is moved into the unpacked layers", os.Geteuid(), c.User)
		cmd.Env = append(cmd.Env, "BUILDKITE_EMULATOR_STATE_FILE="+hostStateFile)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the image's entrypoint: %v", err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the emulator exited with %v after SIGTERM; stderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the emulator did not stop on SIGTERM")
		}
	}()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var base string
	select {
	case line := <-lines:
		base = strings.TrimSpace(strings.TrimPrefix(line, "fakeserver listening on "))
	case <-time.After(20 * time.Second):
		t.Fatalf("no listening line; stderr:\n%s", stderr.String())
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("listening line %q; stderr:\n%s", base, stderr.String())
	}

	resp, err := http.Get(base + "/_emulator/health")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("health: %d", resp.StatusCode)
	}
	// The image's health check command, as a compose file or a GitHub Actions service runs it.
	health := exec.Command(cmd.Path, "health")
	health.Env = append(slices.Clone(c.Env), "BUILDKITE_EMULATOR_LISTEN="+strings.TrimPrefix(base, "http://"))
	health.SysProcAttr, health.Dir = cmd.SysProcAttr, cmd.Dir
	if b, err := health.CombinedOutput(); err != nil {
		t.Fatalf("%s health: %v\n%s", args[0], err, b)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/v2/organizations/demo/clusters", strings.NewReader(`{"name":"from the image"}`))
	req.Header.Set("Authorization", "Bearer demo-token")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create cluster: %d; stderr:\n%s", resp.StatusCode, stderr.String())
	}
	data, err := os.ReadFile(hostStateFile)
	if err != nil || !strings.Contains(string(data), "from the image") {
		t.Fatalf("the state file under the volume does not hold the cluster: %v", err)
	}
	if fi, err := os.Stat(hostStateFile); err == nil && os.Geteuid() == 0 {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != uid {
			t.Errorf("the state file is owned by %d, not the image's user %d", st.Uid, uid)
		}
	}
}

// readImage reads the OCI layout at dir and returns the config and the layer blobs' paths of the image
// for linux/arch.
func readImage(t *testing.T, dir, arch string) (ociConfig, []string) {
	t.Helper()
	blob := func(digest string) string {
		alg, hex, _ := strings.Cut(digest, ":")
		return filepath.Join(dir, "blobs", alg, hex)
	}
	readJSON := func(file string, v any) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	var top ociIndex
	readJSON(filepath.Join(dir, "index.json"), &top)
	if len(top.Manifests) != 1 || top.Manifests[0].MediaType != "application/vnd.oci.image.index.v1+json" {
		t.Fatalf("index.json holds %+v, want one image index", top.Manifests)
	}
	var idx ociIndex
	readJSON(blob(top.Manifests[0].Digest), &idx)
	for _, m := range idx.Manifests {
		if m.Platform == nil || m.Platform.OS != "linux" || m.Platform.Architecture != arch {
			continue
		}
		var man ociManifest
		readJSON(blob(m.Digest), &man)
		var cfg ociConfig
		readJSON(blob(man.Config.Digest), &cfg)
		if cfg.Architecture != arch {
			t.Fatalf("the linux/%s manifest's config says %s", arch, cfg.Architecture)
		}
		var layers []string
		for _, l := range man.Layers {
			layers = append(layers, blob(l.Digest))
		}
		return cfg, layers
	}
	t.Fatalf("the image index has no linux/%s image: %+v", arch, idx.Manifests)
	return ociConfig{}, nil
}

// unpackLayer extracts a gzip-compressed tar layer into dir, keeping modes and, as root, owners.
func unpackLayer(t *testing.T, file, dir string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+hdr.Name)))
		switch hdr.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(target, 0o755)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
				var w *os.File
				if w, err = os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
					_, err = io.Copy(w, tr)
					err = errors.Join(err, w.Close())
				}
			}
		default:
			t.Fatalf("layer entry %s of type %c: the image holds only directories and files", hdr.Name, hdr.Typeflag)
		}
		if err == nil {
			err = os.Chmod(target, os.FileMode(hdr.Mode).Perm()|modeBits(hdr.Mode))
		}
		if err == nil && os.Geteuid() == 0 {
			err = os.Lchown(target, hdr.Uid, hdr.Gid)
		}
		if err != nil {
			t.Fatalf("unpacking %s: %v", hdr.Name, err)
		}
	}
}

// modeBits turns a tar header's sticky bit into Go's.
func modeBits(mode int64) os.FileMode {
	if mode&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

// parseUser reads an image's "uid:gid" user.
func parseUser(t *testing.T, user string) (uint32, uint32) {
	t.Helper()
	u, g, _ := strings.Cut(user, ":")
	uid, err := strconv.ParseUint(u, 10, 32)
	if err != nil {
		t.Fatalf("image user %q is not numeric", user)
	}
	gid := uid
	if g != "" {
		if gid, err = strconv.ParseUint(g, 10, 32); err != nil {
			t.Fatalf("image group %q is not numeric", user)
		}
	}
	return uint32(uid), uint32(gid)
}

// imageEpoch is the SOURCE_DATE_EPOCH the image test builds with.
const imageEpoch = 1764547200 // 2025-12-01T00:00:00Z

// checkStrictTar reads a gzip-compressed tar layer as a strict reader would: every entry read to io.EOF,
// the archive a whole number of 512-byte blocks ending in the two zero blocks that mark its end (Go's
// reader takes a tar without them; GNU tar and Python's tarfile do not), and, where GNU tar is installed,
// `tar -t` lists it without complaint.
func checkStrictTar(t *testing.T, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("layer %s: %v", file, err)
	}
	if err := strictTar(data); err != nil {
		t.Fatalf("layer %s: %v", file, err)
	}
	if _, err := exec.LookPath("tar"); err != nil {
		t.Logf("NO GNU TAR: the layer was checked by its blocks only (%v)", err)
		return
	}
	list := exec.Command("tar", "-tf", "-")
	list.Stdin = strings.NewReader(string(data))
	if out, err := list.CombinedOutput(); err != nil || strings.Contains(string(out), "tar:") {
		t.Fatalf("tar -t refuses layer %s: %v\n%s", file, err, out)
	}
}

// strictTar reports what makes data not a complete tar archive.
func strictTar(data []byte) error {
	tr := tar.NewReader(strings.NewReader(string(data)))
	entries := 0
	for {
		_, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, tr); err != nil {
			return err
		}
		entries++
	}
	const block = 512
	if entries == 0 || len(data)%block != 0 || len(data) < 2*block {
		return errors.New("not a whole number of 512-byte blocks holding at least one entry and the end of the archive (" + strconv.Itoa(len(data)) + " bytes)")
	}
	for _, b := range data[len(data)-2*block:] {
		if b != 0 {
			return errors.New("the archive does not end in two zero blocks: its end-of-archive marker is missing")
		}
	}
	return nil
}

// TestStrictTarRefusesAnUnendedArchive: the check finds the missing end of an archive whose writer was not
// closed, and takes the same archive closed.
func TestStrictTarRefusesAnUnendedArchive(t *testing.T) {
	var buf strings.Builder
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	_, _ = tw.Write([]byte("x"))
	_ = tw.Flush()
	if err := strictTar([]byte(buf.String())); err == nil {
		t.Fatal("an archive without its end was taken")
	}
	_ = tw.Close()
	if err := strictTar([]byte(buf.String())); err != nil {
		t.Fatalf("a whole archive was refused: %v", err)
	}
}

// TestMakeImageUsesTheCommitTime: make image gives tools/image the commit's time as SOURCE_DATE_EPOCH (so
// the image is not dated 1970, and the same commit builds the same image), and one set in the environment
// wins.
func TestMakeImageUsesTheCommitTime(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ct, err := exec.Command("git", "-C", root, "log", "-1", "--format=%ct").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	for _, c := range []struct{ env, want string }{
		{"", strings.TrimSpace(string(ct))},
		{"SOURCE_DATE_EPOCH=42", "42"},
	} {
		// GO stands in for the Go command: it prints the epoch make image gives it instead of building.
		make := exec.Command("make", "-s", "-C", root, "image", `GO=sh -c 'echo "epoch=$$SOURCE_DATE_EPOCH"' sh`)
		make.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "SOURCE_DATE_EPOCH=") })
		if c.env != "" {
			make.Env = append(make.Env, c.env)
		}
		out, err := make.CombinedOutput()
		if err != nil {
			t.Fatalf("make image: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "epoch="+c.want {
			t.Errorf("with %q in the environment, make image gave tools/image %q, want epoch=%s", c.env, got, c.want)
		}
	}
}

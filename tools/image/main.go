// Command image builds the Buildkite API emulator's OCI image (cmd/fakeserver) without a container
// daemon: it cross-compiles the command with CGO_ENABLED=0 for each platform, puts the binary, a passwd
// and group naming the non-root user, and the state volume's directory in one layer on no base image, and
// writes an OCI image layout (an index of one image per platform) that `crane push`, `skopeo copy
// oci:DIR ...` or `docker buildx imagetools` take as it is. It prints the index's digest and writes it to
// DIR/digest.
//
//	go run -C tools/image . --src ../.. --out ../../dist/image --version 1.2.3
//
// The image runs /fakeserver as user 65532 (nonroot), listens on 0.0.0.0:8080 (the one exposed port), and
// keeps its state in /data/state.json under the declared volume /data; every flag of the command is also
// an environment variable (BUILDKITE_EMULATOR_*), which is how a container is configured.
//
// It lives in a module of its own so that go-containerregistry is not a dependency of the provider.
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's fixed facts, which the README's examples and cmd/fakeserver's image test rely on.
const (
	userID     = 65532
	port       = "8080"
	volume     = "/data"
	binaryPath = "/fakeserver"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	src := fs.String("src", "../..", "the provider's checkout (holds cmd/fakeserver)")
	out := fs.String("out", "../../dist/image", "`directory` to write the OCI image layout to (replaced)")
	version := fs.String("version", "dev", "the image's version label and the layout's ref name")
	platforms := fs.String("platforms", "linux/amd64,linux/arm64", "comma-separated os/arch list to build")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := filepath.Abs(*src)
	if err != nil {
		return err
	}
	created := time.Unix(0, 0).UTC()
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		var secs int64
		if _, err := fmt.Sscan(epoch, &secs); err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH %q: %w", epoch, err)
		}
		created = time.Unix(secs, 0).UTC()
	}

	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, p := range strings.Split(*platforms, ",") {
		osName, arch, ok := strings.Cut(strings.TrimSpace(p), "/")
		if !ok || osName != "linux" {
			return fmt.Errorf("--platforms: %q is not linux/<arch>", p)
		}
		img, err := buildImage(root, arch, *version, created)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: osName, Architecture: arch}},
		})
	}
	digest, err := idx.Digest()
	if err != nil {
		return err
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	lp, err := layout.Write(*out, empty.Index)
	if err != nil {
		return err
	}
	if err := lp.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": *version,
	})); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "digest"), []byte(digest.String()+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("image %s: %s (%s)\n", *out, digest, *platforms)
	return nil
}

// buildImage builds the emulator's image for linux/arch.
func buildImage(root, arch, version string, created time.Time) (v1.Image, error) {
	bin, err := buildBinary(root, arch)
	if err != nil {
		return nil, err
	}
	layerTar, err := rootFS(bin, created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{
		Created: v1.Time{Time: created}, CreatedBy: "tools/image: cmd/fakeserver built with CGO_ENABLED=0",
	}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Created = "linux", arch, v1.Time{Time: created}
	cf.Config = v1.Config{
		Entrypoint: []string{binaryPath},
		Env: []string{
			"BUILDKITE_EMULATOR_LISTEN=0.0.0.0:" + port,
			"BUILDKITE_EMULATOR_STATE_FILE=" + volume + "/state.json",
		},
		User:         fmt.Sprintf("%d:%d", userID, userID),
		WorkingDir:   volume,
		ExposedPorts: map[string]struct{}{port + "/tcp": {}},
		Volumes:      map[string]struct{}{volume: {}},
		Labels: map[string]string{
			"org.opencontainers.image.title":       "fakeserver",
			"org.opencontainers.image.description": "Buildkite REST API emulator",
			"org.opencontainers.image.source":      "https://github.com/ci-rest/terraform-provider-buildkite",
			"org.opencontainers.image.version":     version,
		},
	}
	return mutate.ConfigFile(img, cf)
}

// buildBinary cross-compiles cmd/fakeserver for linux/arch and returns its bytes.
func buildBinary(root, arch string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "fakeserver-image-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	bin := filepath.Join(tmp, "fakeserver")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/fakeserver")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch, "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %w\n%s", err, out)
	}
	return os.ReadFile(bin)
}

// rootFS is the image's one layer: the binary, the user's passwd and group entries, the state volume's
// directory (owned by the user, so the state file can be written) and /tmp.
func rootFS(bin []byte, created time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", userID, userID, volume)
	group := fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", userID)
	entries := []struct {
		name     string
		mode     int64
		uid      int
		dir      bool
		contents []byte
	}{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/passwd", mode: 0o644, contents: []byte(passwd)},
		{name: "etc/group", mode: 0o644, contents: []byte(group)},
		{name: "tmp/", mode: 0o1777, dir: true},
		{name: strings.TrimPrefix(volume, "/") + "/", mode: 0o755, uid: userID, dir: true},
		{name: strings.TrimPrefix(binaryPath, "/"), mode: 0o755, contents: bin},
	}
	for _, e := range entries {
		hdr := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: created, Format: tar.FormatPAX}
		if e.dir {
			hdr.Typeflag = tar.TypeDir
		} else {
			hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(e.contents))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.contents); err != nil {
			return nil, err
		}
	}
	// Closed before the buffer is taken: Close writes the end of the archive (two zero blocks), without
	// which GNU tar and Python's tarfile refuse the layer.
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

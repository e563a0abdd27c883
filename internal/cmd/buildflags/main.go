// Command buildflags prints how the release builds one of its binaries, read from .goreleaser.yml, so that
// `make install` and `make demo` build the provider with `go build` exactly as `make release-snapshot` does
// (the same flags, ldflags and version stamp) without compiling goreleaser itself (some 840 modules, minutes
// on a fresh machine). .goreleaser.yml stays the one place that says how a binary is built.
//
//	go run ./internal/cmd/buildflags -id provider -version 0.1.0        the go build arguments, one a line,
//	                                                                    the main package last
//	go run ./internal/cmd/buildflags -id provider -version 0.1.0 -env   the environment, KEY=VALUE a line
//
// The templates in flags, ldflags and env may use .Version and .ProjectName; any other field is an error
// rather than a build that differs from the release.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/template"

	"gopkg.in/yaml.v3"
)

// config is the part of .goreleaser.yml that says how a binary is built.
type config struct {
	ProjectName string  `yaml:"project_name"`
	Builds      []build `yaml:"builds"`
}

type build struct {
	ID      string   `yaml:"id"`
	Main    string   `yaml:"main"`
	Env     []string `yaml:"env"`
	Flags   []string `yaml:"flags"`
	Ldflags []string `yaml:"ldflags"`
}

// stamp is what the templates may refer to.
type stamp struct {
	Version     string
	ProjectName string
}

func main() {
	file := flag.String("config", ".goreleaser.yml", "the goreleaser configuration")
	id := flag.String("id", "provider", "the build's id")
	version := flag.String("version", "", "the version to stamp (goreleaser's .Version)")
	env := flag.Bool("env", false, "print the build's environment instead of its arguments")
	flag.Parse()
	if err := run(os.Stdout, *file, *id, *version, *env); err != nil {
		fmt.Fprintln(os.Stderr, "buildflags:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, file, id, version string, env bool) error {
	if version == "" {
		return errors.New("-version is required")
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	lines, err := buildLines(raw, id, version, env)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// buildLines returns the environment of build id (env), or its go build arguments with the main package last.
func buildLines(raw []byte, id, version string, env bool) ([]string, error) {
	var c config
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	var b *build
	for i := range c.Builds {
		if c.Builds[i].ID == id {
			b = &c.Builds[i]
		}
	}
	if b == nil {
		return nil, fmt.Errorf("no build with id %q", id)
	}
	s := stamp{Version: version, ProjectName: c.ProjectName}
	if env {
		return expandAll(b.Env, s)
	}
	out, err := expandAll(b.Flags, s)
	if err != nil {
		return nil, err
	}
	ld, err := expandAll(b.Ldflags, s)
	if err != nil {
		return nil, err
	}
	if len(ld) > 0 {
		out = append(out, "-ldflags="+strings.Join(ld, " "))
	}
	main := b.Main
	if main == "" {
		main = "."
	}
	return append(out, main), nil
}

func expandAll(in []string, s stamp) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, v := range in {
		t, err := template.New("").Option("missingkey=error").Parse(v)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", v, err)
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, s); err != nil {
			return nil, fmt.Errorf("%q refers to what only goreleaser knows: %w", v, err)
		}
		out = append(out, buf.String())
	}
	return out, nil
}

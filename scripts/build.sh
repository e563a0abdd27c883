#!/usr/bin/env bash
# Sourced by scripts/mirror.sh and scripts/emulator.sh; expects $root (the repository).
#
# build_with_release_flags <id> <version> <out> builds the binary of .goreleaser.yml's build <id> for this
# machine with `go build`, with that build's environment, flags and ldflags (the version stamp among them),
# as internal/cmd/buildflags reads them: what `make release-snapshot` builds, without goreleaser.
build_with_release_flags() {
  local id=$1 version=$2 out=$3 envs args
  # The helper itself is built as the release builds (no cgo, -trimpath), so that the standard library it
  # compiles on a fresh machine is the one the provider's build then finds in the cache.
  envs=$(cd "$root" && CGO_ENABLED=0 go run -trimpath ./internal/cmd/buildflags -id "$id" -version "$version" -env) || return 1
  args=$(cd "$root" && CGO_ENABLED=0 go run -trimpath ./internal/cmd/buildflags -id "$id" -version "$version") || return 1
  local -a env_list=() arg_list=()
  [[ -n $envs ]] && mapfile -t env_list <<<"$envs"
  mapfile -t arg_list <<<"$args"
  (cd "$root" && env "${env_list[@]}" go build -o "$out" "${arg_list[@]}") ||
    { echo "build: go build of $id failed" >&2; return 1; }
}

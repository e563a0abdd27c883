#!/usr/bin/env bash
# Sourced by the demo scripts: builds the emulator and the provider into $work (both with `go build` and the
# release's flags from .goreleaser.yml, the provider laid out as a filesystem mirror: scripts/mirror.sh),
# starts the emulator with the arguments given (its URL in $url), points the CLI at the mirror as a user
# would (`terraform init` installs from it and writes .terraform.lock.hcl; no dev_overrides), and stops the
# emulator and removes $work on exit. The caller sets $root (the repository) and $work (a scratch directory) first; RELEASE_VERSION is the
# version the mirror holds (default 0.1.0).

emulator_pid=""
cleanup() {
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill -TERM "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

provider_version=${RELEASE_VERSION:-0.1.0}

# start_emulator builds both binaries and starts the emulator with "$@" on a free port.
start_emulator() {
  echo "==> building the provider (go build, the release's flags, host platform) into a filesystem mirror, and the emulator"
  QUIET=1 "$root/scripts/mirror.sh" "$work/mirror" "$provider_version"
  # shellcheck source=scripts/build.sh
  source "$root/scripts/build.sh"
  build_with_release_flags emulator "$provider_version" "$work/bin/fakeserver" || exit 1

  echo "==> starting the emulator"
  "$work/bin/fakeserver" --listen 127.0.0.1:0 "$@" >"$work/emulator.log" 2>&1 &
  emulator_pid=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$work/emulator.log" | head -n1 || true)
    [[ -n "$url" ]] && break
    kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; echo "the emulator exited" >&2; exit 1; }
    sleep 0.1
  done
  [[ -n "$url" ]] || { cat "$work/emulator.log" >&2; echo "the emulator did not print its URL" >&2; exit 1; }
  echo "    emulator at $url"

  cat >"$work/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$work/mirror"
    include = ["registry.terraform.io/ci-rest/buildkite", "registry.opentofu.org/ci-rest/buildkite"]
  }
  direct {
    exclude = ["registry.terraform.io/ci-rest/buildkite", "registry.opentofu.org/ci-rest/buildkite"]
  }
}
RC
  export TF_CLI_CONFIG_FILE="$work/terraformrc"
  export CHECKPOINT_DISABLE=1
  export TF_IN_AUTOMATION=1
  export BUILDKITE_REST_URL="$url" BUILDKITE_GRAPHQL_URL="$url/v1"
}

# init_from_mirror runs `$tf init` in the current directory and checks what it did: the provider installed
# from the mirror at provider_version, no development overrides, and a lock file that records it with a
# hash, which a second init with -lockfile=readonly verifies against the installed package.
init_from_mirror() {
  local tf=$1 host=registry.terraform.io out
  [[ $(basename "$tf") == tofu* ]] && host=registry.opentofu.org
  echo "==> $tf init (from the filesystem mirror)"
  out=$("$tf" init -input=false -no-color 2>&1) || { echo "$out" >&2; echo "init failed" >&2; exit 1; }
  echo "$out"
  if grep -qi "overrides" <<<"$out"; then
    echo "init: the CLI reports provider overrides; the demo must install from the mirror" >&2
    exit 1
  fi
  grep -q "Installing ci-rest/buildkite v$provider_version" <<<"$out" ||
    { echo "init: ci-rest/buildkite v$provider_version was not installed" >&2; exit 1; }
  [[ -f .terraform.lock.hcl ]] || { echo "init: no .terraform.lock.hcl written" >&2; exit 1; }
  grep -A4 "provider \"$host/ci-rest/buildkite\"" .terraform.lock.hcl | grep -q "version *= \"$provider_version\"" ||
    { cat .terraform.lock.hcl >&2; echo "init: the lock file does not record ci-rest/buildkite $provider_version" >&2; exit 1; }
  grep -qE '"h1:[A-Za-z0-9+/=]{44}"' .terraform.lock.hcl ||
    { cat .terraform.lock.hcl >&2; echo "init: the lock file records no h1: hash" >&2; exit 1; }
  echo "==> .terraform.lock.hcl"
  cat .terraform.lock.hcl
  out=$("$tf" init -input=false -no-color -lockfile=readonly 2>&1) ||
    { echo "$out" >&2; echo "init: the installed provider does not match the lock file's hashes" >&2; exit 1; }
  echo "    the lock file's hashes match the installed provider"
}

#!/usr/bin/env bash
# Sourced by the demo scripts: builds the provider and the emulator into $work/bin, starts the emulator
# with the arguments given (its URL in $url), points Terraform at the built provider through dev_overrides
# (no `terraform init`, no registry), and stops the emulator and removes $work on exit. The caller sets
# $root (the repository) and $work (a scratch directory) first.

emulator_pid=""
cleanup() {
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill -TERM "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_emulator builds both binaries and starts the emulator with "$@" on a free port.
start_emulator() {
  echo "==> building the provider and the emulator"
  (cd "$root" && go build -o "$work/bin/terraform-provider-buildkite" . && go build -o "$work/bin/fakeserver" ./internal/cmd/fakeserver)

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
  dev_overrides {
    "registry.terraform.io/ci-rest/buildkite" = "$work/bin"
    "registry.opentofu.org/ci-rest/buildkite" = "$work/bin"
  }
  direct {}
}
RC
  export TF_CLI_CONFIG_FILE="$work/terraformrc"
  export CHECKPOINT_DISABLE=1
  export TF_IN_AUTOMATION=1
  export BUILDKITE_REST_URL="$url"
}

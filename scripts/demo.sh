#!/usr/bin/env bash
# Applies examples/demo against a local emulator with the freshly built provider, checks that a second
# plan is empty, destroys, and exits non-zero on any failure.
set -euo pipefail

# TF_CLI runs the demo with another CLI, such as OpenTofu (make demo-tofu).
tf=${TF_CLI:-terraform}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
emulator_pid=""
cleanup() {
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill -TERM "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "==> building the provider and the emulator"
(cd "$root" && go build -o "$work/bin/terraform-provider-buildkite" . && go build -o "$work/bin/fakeserver" ./internal/cmd/fakeserver)

echo "==> starting the emulator"
"$work/bin/fakeserver" --listen 127.0.0.1:0 --org demo --token demo-token >"$work/emulator.log" 2>&1 &
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

# dev_overrides points Terraform at the binary just built, so no `terraform init` (and no registry) is needed.
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
export BUILDKITE_API_TOKEN=demo-token
export BUILDKITE_ORGANIZATION_SLUG=demo

cp -R "$root/examples/demo" "$work/demo"
cd "$work/demo"

echo "==> $tf apply"
"$tf" apply -auto-approve -input=false -no-color
echo "==> outputs"
"$tf" output -no-color

echo "==> $tf plan (must be empty)"
set +e
"$tf" plan -detailed-exitcode -input=false -no-color
code=$?
set -e
if [[ $code -ne 0 ]]; then
  echo "demo: the second plan is not empty (exit code $code)" >&2
  exit 1
fi

echo "==> $tf destroy"
"$tf" destroy -auto-approve -input=false -no-color
echo "==> demo passed"

#!/usr/bin/env bash
# Applies examples/demo against a local emulator with the freshly built provider, installed by `terraform
# init` from a filesystem mirror (its lock file checked), checks that a second plan is empty, destroys, and
# exits non-zero on any failure.
set -euo pipefail

# TF_CLI runs the demo with another CLI, such as OpenTofu (make demo-tofu).
tf=${TF_CLI:-terraform}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
# shellcheck source=scripts/emulator.sh
source "$root/scripts/emulator.sh"
start_emulator --org demo --token demo-token
export BUILDKITE_API_TOKEN=demo-token
export BUILDKITE_ORGANIZATION_SLUG=demo

cp -R "$root/examples/demo" "$work/demo"
cd "$work/demo"
init_from_mirror "$tf"

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

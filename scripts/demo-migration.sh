#!/usr/bin/env bash
# Moves examples/migration, a workspace the official provider left (its configuration and its state), to
# this provider, against a local emulator that holds its objects (the example's emulator-state.json), in
# the three steps of the guide "Moving from the official provider": change source, replace-provider, plan.
# Exits non-zero unless the plan, and the plan without refresh, say "No changes."
set -euo pipefail

tf=${TF_CLI:-terraform}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
# shellcheck source=scripts/emulator.sh
source "$root/scripts/emulator.sh"

cp -R "$root/examples/migration" "$work/workspace"
# The emulator keeps its objects in this file and writes it as they change: it gets the copy.
mv "$work/workspace/emulator-state.json" "$work/emulator-state.json"
start_emulator --state-file "$work/emulator-state.json"
export BUILDKITE_API_TOKEN=demo-token
cd "$work/workspace"

echo "==> step 1: change the provider's source in main.tf"
sed -i.orig 's#source = "buildkite/buildkite"#source = "ci-rest/buildkite"#' main.tf
diff main.tf.orig main.tf || true
rm main.tf.orig

echo "==> step 2: $tf state replace-provider"
"$tf" state replace-provider -auto-approve -no-color \
  registry.terraform.io/buildkite/buildkite registry.terraform.io/ci-rest/buildkite
# A user online runs terraform init after step 1 (it installs both providers: the state still names the
# official one); offline, with only this provider in the mirror, init comes once the state names it.
init_from_mirror "$tf"

# plan_no_changes runs a plan and fails unless it says "No changes." (exit code 0 with -detailed-exitcode).
plan_no_changes() {
  set +e
  "$tf" plan -detailed-exitcode -input=false -no-color "$@" | tee "$work/plan.txt"
  local code=${PIPESTATUS[0]}
  set -e
  if [[ $code -ne 0 ]] || ! grep -q "No changes." "$work/plan.txt"; then
    echo "demo-migration: terraform plan $* does not say \"No changes.\" (exit code $code)" >&2
    exit 1
  fi
}

echo "==> step 3: $tf plan (must say No changes.)"
plan_no_changes
echo "==> and without refreshing: $tf plan -refresh=false"
plan_no_changes -refresh=false
echo "==> demo-migration passed: the workspace moved with nothing to create, replace, update or destroy"

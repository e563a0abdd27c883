#!/usr/bin/env bash
# make test-page: applies examples/demo against the emulator (started with an admin token), then has
# TestPageInBrowser load the emulator's page (/_emulator/) in headless Chromium and find the demo's objects
# on it, and none of their secrets. Chromium comes from Debian's packages: installed with apt-get when
# missing (as root), else the run fails saying so. PAGE_SCREENSHOT=file.png keeps a screenshot.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)

chromium=${BUILDKITE_EMULATOR_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z $chromium ]]; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "==> installing chromium (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    chromium=$(command -v chromium)
  else
    echo "test-page: no chromium on PATH, and apt-get cannot install it here (needs root and apt); install Debian's chromium package" >&2
    exit 1
  fi
fi

# shellcheck source=scripts/emulator.sh
source "$root/scripts/emulator.sh"
admin="page-admin-$RANDOM$RANDOM"
start_emulator --org demo --token demo-token --admin-token "$admin"
export BUILDKITE_API_TOKEN=demo-token BUILDKITE_ORGANIZATION_SLUG=demo

cp -R "$root/examples/demo" "$work/demo"
cd "$work/demo"
init_from_mirror terraform >/dev/null
echo "==> terraform apply (examples/demo)"
terraform apply -auto-approve -input=false -no-color >"$work/apply.log" || { cat "$work/apply.log" >&2; exit 1; }
terraform show -json >"$work/state.json"

echo "==> TestPageInBrowser"
cd "$root"
BUILDKITE_EMULATOR_PAGE_URL="$url" BUILDKITE_EMULATOR_PAGE_ADMIN_TOKEN="$admin" \
  BUILDKITE_EMULATOR_PAGE_STATE="$work/state.json" BUILDKITE_EMULATOR_CHROMIUM="$chromium" \
  BUILDKITE_EMULATOR_PAGE_SCREENSHOT="${PAGE_SCREENSHOT:-}" \
  go test -count=1 -run '^TestPageInBrowser$' -v ./fakeserver/ | grep -vE '^=== RUN'

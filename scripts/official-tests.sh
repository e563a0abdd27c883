#!/usr/bin/env bash
# Runs the official provider's acceptance tests (buildkite/terraform-provider-buildkite, unchanged) against a
# fresh emulator: OFFICIAL_DIR names a checkout of it (nothing of it is kept in this repository, and CI has no
# network to fetch one, so without it this says so and stops). OFFICIAL_RUN narrows the tests (go test -run),
# OFFICIAL_PARALLEL sets -parallel (default 4), OFFICIAL_OUT names the go test -json output file
# (default bin/official-tests.json). Prints the pass/fail/skip counts and the failed tests' names.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [[ -z "${OFFICIAL_DIR:-}" ]]; then
  echo "official-tests: set OFFICIAL_DIR to a checkout of github.com/buildkite/terraform-provider-buildkite" >&2
  echo "official-tests: (nothing is fetched here: CI has no network). Stopping." >&2
  exit 2
fi
if [[ ! -f "$OFFICIAL_DIR/go.mod" ]] || ! grep -q '^module github.com/buildkite/terraform-provider-buildkite' "$OFFICIAL_DIR/go.mod"; then
  echo "official-tests: $OFFICIAL_DIR is not a checkout of buildkite/terraform-provider-buildkite" >&2
  exit 2
fi
out=${OFFICIAL_OUT:-$root/bin/official-tests.json}
mkdir -p "$(dirname "$out")" bin
go build -o bin/fakeserver ./cmd/fakeserver
work=$(mktemp -d)
trap 'kill "${fs_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
org=${OFFICIAL_ORG:-official-acc}
token=${OFFICIAL_TOKEN:-official-acc-token}
# The organization the official tests run in, as Buildkite's own test organization holds it: an administrator
# whose token has every scope, and a second member the team member and cluster maintainer tests name by ID
# (a fixture user's id sets its UUID, and its GraphQL ID follows).
cat >"$work/fixtures.yaml" <<YAML
organizations:
  - slug: $org
users:
  - name: Official Tests
    email: official-tests@example.com
    memberships: [{org: $org, admin: true}]
  - name: Test Environment User
    email: test-environment-user@example.com
    id: 8db2920e-3c60-48a7-a3f8-2584be374bac
    memberships: [{org: $org}]
access_tokens:
  - token: $token
    user: official-tests@example.com
    scopes: all
YAML
./bin/fakeserver --listen 127.0.0.1:0 --fixtures "$work/fixtures.yaml" --seed-defaults --quiet >"$work/out" 2>"$work/err" &
fs_pid=$!
for _ in $(seq 100); do grep -q '^fakeserver listening on ' "$work/out" && break; sleep 0.1; done
base=$(sed -n 's/^fakeserver listening on //p' "$work/out" | head -1)
[[ -n "$base" ]] || { cat "$work/err" >&2; echo "official-tests: the emulator did not start" >&2; exit 1; }
cat >"$work/terraformrc" <<RC
disable_checkpoint = true
RC
echo "official-tests: emulator at $base, organization $org; official checkout $(git -C "$OFFICIAL_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')"
set +e
(cd "$OFFICIAL_DIR" && TF_ACC=1 TF_CLI_CONFIG_FILE="$work/terraformrc" CHECKPOINT_DISABLE=1 \
  BUILDKITE_ORGANIZATION_SLUG="$org" BUILDKITE_API_TOKEN="$token" \
  BUILDKITE_REST_URL="$base" BUILDKITE_GRAPHQL_URL="$base/v1" \
  go test -json -count=1 -timeout "${OFFICIAL_TIMEOUT:-60m}" -parallel "${OFFICIAL_PARALLEL:-4}" \
    -run "${OFFICIAL_RUN:-.}" ./buildkite/ >"$out")
status=$?
set -e
python3 - "$out" <<'PY'
import json, sys
res = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    t = e.get("Test")
    if t and "/" not in t and e.get("Action") in ("pass", "fail", "skip"):
        res[t] = e["Action"]
counts = {k: sum(1 for v in res.values() if v == k) for k in ("pass", "fail", "skip")}
print("official-tests: %(pass)d passed, %(fail)d failed, %(skip)d skipped" % counts)
for t in sorted(k for k, v in res.items() if v == "fail"):
    print("  FAIL", t)
PY
exit 0

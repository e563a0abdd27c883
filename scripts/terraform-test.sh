#!/usr/bin/env bash
# make test-tftest: runs `terraform test` in examples/terraform-test against the emulator as a user's CI
# would: the provider installed by `terraform init` (here from a filesystem mirror of the freshly built
# provider; in a user's CI, from the registry), the emulator started on a free port, and the environment
# that `fakeserver env` prints evaluated, so the module and its tests name no URL and no token.
set -euo pipefail

tf=${TF_CLI:-terraform}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
# shellcheck source=scripts/emulator.sh
source "$root/scripts/emulator.sh"
# Nothing but what `fakeserver env` prints points the provider anywhere.
unset BUILDKITE_REST_URL BUILDKITE_GRAPHQL_URL BUILDKITE_API_TOKEN BUILDKITE_ORGANIZATION_SLUG
start_emulator --org acme --token ci-token --quiet
unset BUILDKITE_REST_URL BUILDKITE_GRAPHQL_URL
eval "$("$work/bin/fakeserver" env --listen "${url#http://}" --org acme --token ci-token)"
echo "    environment from fakeserver env: BUILDKITE_REST_URL=$BUILDKITE_REST_URL BUILDKITE_ORGANIZATION_SLUG=$BUILDKITE_ORGANIZATION_SLUG"

cp -R "$root/examples/terraform-test" "$work/module"
cd "$work/module"
init_from_mirror "$tf" >/dev/null
echo "==> $tf test (examples/terraform-test)"
"$tf" test -no-color

# terraform test destroys what its runs made: the organization is left with no cluster and no pipeline.
for what in clusters pipelines; do
  left=$(curl -fsS -H "Authorization: Bearer $BUILDKITE_API_TOKEN" "$BUILDKITE_REST_URL/v2/organizations/$BUILDKITE_ORGANIZATION_SLUG/$what")
  [[ $left == "[]" ]] || { echo "test-tftest: $what left after terraform test: $left" >&2; exit 1; }
done
echo "==> terraform test passed; nothing left in the emulator"

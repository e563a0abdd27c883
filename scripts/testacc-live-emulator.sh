#!/usr/bin/env bash
# make testacc-live-emulator: make testacc-live against the emulator started as a separate process and reached
# only over HTTP (BUILDKITE_REST_URL), as a live organization would be, with make sweep before and after. It
# fails if any test fails, if the sweep after the tests removed anything (a test left it behind), or if the
# emulator's store holds any object it did not hold at the start (read from its --state-file, so objects the
# sweepers do not know are counted too). LIVE_PARALLEL sets the tests' parallelism (default 4 here).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
emulator_pid=""
cleanup() {
  if [[ -n $emulator_pid ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill -TERM "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$root"
start=$(date +%s)

echo "==> building and starting the emulator"
go build -o "$work/fakeserver" ./cmd/fakeserver || exit 1
"$work/fakeserver" --listen 127.0.0.1:0 --org tf-acc-live --token live-token --quiet \
  --state-file "$work/state.json" >"$work/emulator.log" 2>&1 &
emulator_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$work/emulator.log" | head -n1 || true)
  [[ -n $url ]] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; echo "the emulator exited" >&2; exit 1; }
  sleep 0.1
done
[[ -n $url ]] || { cat "$work/emulator.log" >&2; echo "the emulator did not print its URL" >&2; exit 1; }
echo "    emulator at $url (pid $emulator_pid)"
for _ in $(seq 1 50); do [[ -s $work/state.json ]] && break; sleep 0.1; done
cp "$work/state.json" "$work/baseline.json"

export BUILDKITE_API_TOKEN=live-token BUILDKITE_ORGANIZATION_SLUG=tf-acc-live BUILDKITE_REST_URL=$url BUILDKITE_GRAPHQL_URL=$url/v1
# make sweep deletes only with SWEEP_CONFIRM naming the organization: here the emulator's own.
export SWEEP_CONFIRM=tf-acc-live
unset BUILDKITE_ACC_MEMBER_EMAIL # the token's own user
export LIVE_PARALLEL=${LIVE_PARALLEL:-4}

# sweep_total runs make sweep and prints the number of objects it removed.
sweep_total() {
  make --no-print-directory sweep | tee "$work/sweep.log" >&2 || return 1
  sed -n 's/^sweep: removed \([0-9][0-9]*\) object(s) in total$/\1/p' "$work/sweep.log"
}

failed=()
echo "==> make sweep (before)"
before=$(sweep_total) || failed+=("make sweep before the tests failed")

echo "==> make testacc-live (the tests testacc runs, then those testacc-next runs)"
tests_start=$(date +%s)
make --no-print-directory -k testacc-live || failed+=("make testacc-live failed")
tests_end=$(date +%s)

echo "==> make sweep (after): what the tests left behind"
after=$(sweep_total) || failed+=("make sweep after the tests failed")
[[ ${after:-x} == 0 ]] || failed+=("the tests left ${after:-an unknown number of} tf-acc- object(s) behind (make sweep removed them)")

echo "==> the emulator's store against its start"
go run ./scripts/storediff "$work/baseline.json" "$work/state.json" || failed+=("the emulator's store holds objects it did not hold at the start")

end=$(date +%s)
echo "==> testacc-live-emulator: $((end - start))s in all, $((tests_end - tests_start))s of tests (LIVE_PARALLEL=$LIVE_PARALLEL); sweep before removed ${before:-?}, after ${after:-?}"
if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'testacc-live-emulator: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "==> testacc-live-emulator passed: every test passed or skipped with its reason, nothing left behind"

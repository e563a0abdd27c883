#!/usr/bin/env bash
# Builds a Terraform or OpenTofu CLI from the Go module proxy, the only network this project relies on.
#
#   scripts/build-terraform.sh terraform v1.16.1 bin/terraform-1.16
#   scripts/build-terraform.sh tofu      v1.12.6 bin/tofu
#
# `go install module@version` refuses both modules because their go.mod files carry replace directives, so
# the module is downloaded, copied out, made writable and built in place (where its own replaces apply).
# Terraform's go.mod also replaces ten nested modules with local directories the module zip does not
# contain (nine remote-state backends and internal/legacy, the same ten in 1.15.9 and 1.16.1); they are
# dropped, with the nine backends' imports and registrations. The local, remote, cloud, http and inmem
# backends remain, which is all the acceptance tests and `terraform query` need. OpenTofu replaces only
# hashicorp/hcl/v2 by its fork (github.com/opentofu/hcl/v2), a module on the proxy, so it builds unchanged.
set -euo pipefail

usage() { echo "usage: $0 terraform|tofu <version> <output>" >&2; exit 2; }
[[ $# -eq 3 ]] || usage
cli=$1 version=$2 out=$3
case "$cli" in
  terraform) module=github.com/hashicorp/terraform main=. ;;
  tofu) module=github.com/opentofu/opentofu main=./cmd/tofu ;;
  *) usage ;;
esac
go=${GO:-go}

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "==> downloading $module@$version from the module proxy"
# Outside any module, so the project's go.mod neither constrains nor records the download.
dir=$(cd "$work" && "$go" mod download -json "$module@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n "$dir" && -d "$dir" ]] || { echo "go mod download did not give a directory for $module@$version" >&2; exit 1; }
src=$work/src
cp -R "$dir" "$src"
chmod -R u+w "$src"

if [[ $cli == terraform ]]; then
  echo "==> dropping the local replaces the module zip cannot satisfy"
  local_mods=$(sed -n 's|^replace \(github.com/hashicorp/terraform/[^ ]*\) => \./.*|\1|p' "$src/go.mod")
  [[ -n "$local_mods" ]] || { echo "no local replaces found in go.mod: has the layout changed?" >&2; exit 1; }
  for m in $local_mods; do
    (cd "$src" && "$go" mod edit -droprequire "$m" -dropreplace "$m")
  done
  init=$src/internal/backend/init/init.go
  # Each dropped backend is one import line ("backendX ".../remote-state/<name>"") and one registration
  # line calling that alias; drop both (the build fails loudly if anything else still imports them).
  for m in $local_mods; do
    case "$m" in */remote-state/*) ;; *) continue ;; esac
    alias=$(sed -n "s|^[[:space:]]*\([A-Za-z0-9_]*\) \"$m\"\$|\1|p" "$init")
    [[ -n "$alias" ]] || { echo "no import of $m in $init" >&2; exit 1; }
    sed -i -e "\|\"$m\"\$|d" -e "/ $alias\.New(/d" "$init"
  done
fi

echo "==> building $cli $version (CGO_ENABLED=0, -trimpath)"
mkdir -p "$(dirname "$out")"
abs_out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
(cd "$src" && CGO_ENABLED=0 "$go" build -trimpath \
  -ldflags "-w -s -X '$module/version.dev=no'" -o "$abs_out.tmp" "$main")
mv "$abs_out.tmp" "$abs_out"
# An empty CLI configuration, so that the check reads nothing from the environment.
TF_CLI_CONFIG_FILE=/dev/null "$abs_out" version

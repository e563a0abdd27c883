#!/usr/bin/env bash
# Lays the provider out as a filesystem mirror Terraform (and OpenTofu) install from with `terraform init`:
#   <dir>/<host>/ci-rest/buildkite/<version>/<os>_<arch>/terraform-provider-buildkite_v<version>
# (the unpacked layout) for the hosts registry.terraform.io and registry.opentofu.org.
#
#   scripts/mirror.sh <dir> <version>          build the host platform with go build, as the release builds it
#   scripts/mirror.sh <dir> <version> <dist>   every platform of a `make release-snapshot` in <dist> (its zips)
#
# Prints the provider_installation block that makes the CLI install from <dir>; QUIET=1 leaves it out.
set -euo pipefail

dir=${1:?usage: mirror.sh <dir> <version> [<dist>]}
version=${2:?usage: mirror.sh <dir> <version> [<dist>]}
dist=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
name=terraform-provider-buildkite
hosts=(registry.terraform.io registry.opentofu.org)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# shellcheck source=scripts/build.sh
source "$root/scripts/build.sh"

# place <os_arch> <binary>: the binary into every host's directory for the platform, replacing what was there.
place() {
  local platform=$1 bin=$2 ext=""
  [[ $platform == windows_* ]] && ext=.exe
  for host in "${hosts[@]}"; do
    local to="$dir/$host/ci-rest/buildkite/$version/$platform"
    rm -rf "$to"
    mkdir -p "$to"
    cp "$bin" "$to/${name}_v${version}${ext}"
    chmod 0755 "$to/${name}_v${version}${ext}"
  done
}

if [[ -z $dist ]]; then
  # The host platform only, with `go build` and the flags, ldflags and version stamp of the release's build
  # (read from .goreleaser.yml by internal/cmd/buildflags), so that a fresh machine need not compile goreleaser.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  platform="$(go env GOOS)_$(go env GOARCH)"
  build_with_release_flags provider "$version" "$tmp/provider"
  place "$platform" "$tmp/provider"
  echo "mirror: $name $version for $platform in $dir"
else
  command -v unzip >/dev/null || { echo "mirror: unzip is needed to unpack the release's zips" >&2; exit 1; }
  dist=$(cd "$dist" && pwd)
  shopt -s nullglob
  zips=("$dist/${name}_${version}_"*.zip)
  [[ ${#zips[@]} -gt 0 ]] || { echo "mirror: no ${name}_${version}_*.zip in $dist: run make release-snapshot first" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for zip in "${zips[@]}"; do
    platform=$(basename "$zip" .zip)
    platform=${platform#"${name}_${version}_"}
    rm -rf "$tmp/x" && mkdir "$tmp/x"
    (cd "$tmp/x" && unzip -q "$zip")
    bin=$(find "$tmp/x" -type f -name "${name}_v${version}*" | head -n1)
    [[ -n $bin ]] || { echo "mirror: $zip holds no ${name}_v${version}" >&2; exit 1; }
    place "$platform" "$bin"
  done
  echo "mirror: $name $version for ${#zips[@]} platforms in $dir"
fi

[[ ${QUIET:-} == 1 ]] && exit 0
cat <<EOF

Add this to your Terraform CLI configuration (~/.terraformrc, or the file TF_CLI_CONFIG_FILE names), then run
terraform init: it installs ci-rest/buildkite $version from the mirror and records its hashes in
.terraform.lock.hcl.

provider_installation {
  filesystem_mirror {
    path    = "$dir"
    include = ["registry.terraform.io/ci-rest/buildkite", "registry.opentofu.org/ci-rest/buildkite"]
  }
  direct {
    exclude = ["registry.terraform.io/ci-rest/buildkite", "registry.opentofu.org/ci-rest/buildkite"]
  }
}
EOF

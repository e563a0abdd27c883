#!/usr/bin/env bash
# Writes the provider's schema as a given Terraform CLI reports it, for `tfplugindocs generate
# --providers-schema`:
#
#   scripts/providers-schema.sh bin/terraform-1.16 registry.terraform.io/ci-rest/buildkite bin bin/providers-schema.json
#
# tfplugindocs, left to itself, asks the first `terraform` on PATH, and Terraform 1.11 reports neither
# actions, list resources nor resource identities, so their pages would be missing. Here the CLI named
# first loads the provider binary from the directory named third through a dev_overrides block (no
# `terraform init`, no registry), in a scratch directory with a one-line configuration; the provider's
# key in the JSON (its full address, second argument) is then rewritten to its short name, the only other
# key tfplugindocs looks up besides registry.terraform.io/hashicorp/<name>.
set -euo pipefail

usage() { echo "usage: $0 <terraform> <provider address> <provider binary dir> <output json>" >&2; exit 2; }
[[ $# -eq 4 ]] || usage
cli=$1 address=$2 plugin_dir=$3 out=$4
name=${address##*/}
source=${address#registry.terraform.io/}

[[ -x $cli ]] || { echo "$cli is not an executable Terraform CLI" >&2; exit 1; }
[[ -x $plugin_dir/terraform-provider-$name ]] || { echo "$plugin_dir/terraform-provider-$name is missing: build the provider first" >&2; exit 1; }
plugin_dir=$(cd "$plugin_dir" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "$address" = "$plugin_dir"
  }
  direct {}
}
EOF
cat >"$work/main.tf" <<EOF
terraform {
  required_providers {
    $name = { source = "$source" }
  }
}
EOF

export TF_CLI_CONFIG_FILE=$work/terraformrc CHECKPOINT_DISABLE=1
"$cli" -chdir="$work" providers schema -json >"$work/schema.json"

# The JSON is one line; the address appears as a key exactly once, right before the provider's schema.
key="\"$address\":{"
[[ $(grep -o -F "$key" "$work/schema.json" | wc -l) -eq 1 ]] ||
  { echo "the schema $cli wrote does not hold $address once as a key" >&2; exit 1; }
sed "s|\"${address//./\\.}\":{|\"$name\":{|" "$work/schema.json" >"$out"
if grep -q -F "$key" "$out" || ! grep -q -F "\"$name\":{" "$out"; then
  echo "rewriting the key $address to $name failed" >&2
  exit 1
fi
echo "==> wrote the schema of $address as $("$cli" version | head -n 1) reports it to $out"

#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages ctestgen needs, only those
# that are missing.  Idempotent and quiet when everything is present.
#   scripts/install-deps.sh          build + test dependencies
#   scripts/install-deps.sh --bench  also the peers of the benchmarks (AFL++, libFuzzer)
set -euo pipefail

pkgs=(make cmake gcc pkg-config clang-14 llvm-14-dev libz3-dev libclang-14-dev
      libcmocka-dev libxml2-dev libxml2-utils libjson-c-dev libssl-dev libyaml-dev libzip-dev
      gcovr lcov jq
      gcc-multilib)
if [ "${1:-}" = "--bench" ]; then
  pkgs+=(afl++ libfuzzer-14-dev libclang-rt-14-dev)
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages ctestgen needs, only those
# that are missing.  Idempotent and quiet when everything is present.
#   scripts/install-deps.sh          build + test dependencies
#   scripts/install-deps.sh --bench  also the peers of the benchmarks (AFL++, libFuzzer)
set -euo pipefail

pkgs=(make cmake gcc pkg-config clang-14 llvm-14-dev libz3-dev libclang-14-dev
      libcmocka-dev libxml2-dev libxml2-utils libjson-c-dev libssl-dev libyaml-dev libzip-dev
      libelf-dev binutils
      gcovr lcov jq
      gcc-multilib frama-c-base)
# optional: the HTML report's browser test renders the page in chromium,
# run --mpi needs OpenMPI at build time (the binary says when it was built
# without); their tests skip, saying why, where they are missing; a failed
# install is no error
optional=(chromium libopenmpi-dev openmpi-bin)
if [ "${1:-}" = "--bench" ]; then
  pkgs+=(afl++ libfuzzer-14-dev libclang-rt-14-dev)
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${pkgs[@]}"; do
  installed "$p" || missing+=("$p")
done
opt_missing=()
for p in "${optional[@]}"; do
  installed "$p" || opt_missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ ${#opt_missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]} ${opt_missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo
  elif [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: not root: ${opt_missing[*]} (optional) not installed; the tests that need it skip" >&2
    exit 0
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
[ ${#missing[@]} -eq 0 ] ||
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ ${#opt_missing[@]} -gt 0 ]; then
  $SUDO apt-get install -y -qq --no-install-recommends "${opt_missing[@]}" >/dev/null ||
    echo "install-deps: ${opt_missing[*]} not installed (optional): the tests that need it skip" >&2
fi

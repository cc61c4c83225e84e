# lib.sh - helpers for the end-to-end tests (sourced).
# Environment (set by CTest): CTESTGEN (binary), CTG_SOURCE_DIR, CTESTGEN_CACHE.
set -u
: "${CTESTGEN:?set CTESTGEN to the ctestgen binary}"
: "${CTG_SOURCE_DIR:?set CTG_SOURCE_DIR to the source tree}"
EX="$CTG_SOURCE_DIR/examples"
PROGS="$CTG_SOURCE_DIR/tests/e2e/programs"
DTD="$CTG_SOURCE_DIR/tests/dtd"
T=$(mktemp -d "${TMPDIR:-/tmp}/ctg-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() { local d="$1"; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }
# stat NAME DIR: a counter of DIR/stats.json (0 when absent).
stat() { jq -r ".counters[\"$1\"] // 0" "$2/stats.json"; }
finish() { if [ "$fails" -gt 0 ]; then echo "$fails check(s) failed" >&2; exit 1; fi; echo "all checks passed"; exit 0; }

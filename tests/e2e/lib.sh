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
# longest_test DIR: "VALUES NAME" of the test of DIR's suite with the most values
longest_test() {
  local f
  for f in "$1"/test-suite/test-*.xml; do echo "$(grep -c "<input" "$f") ${f##*/}"; done | sort -n | tail -1
}
# exec32: true when this host runs 32-bit programs (ctestgen doctor's probe,
# which CTESTGEN_NO_EXEC32=1 makes fail); else prints why the 32-bit part of
# a test is skipped.
exec32() {
  local why
  why=$("$CTESTGEN" doctor 2>/dev/null | sed -n 's/^exec32 *no: //p')
  "$CTESTGEN" doctor 2>/dev/null | grep -q '^exec32 *yes' && return 0
  echo "skip (32-bit part): ${why:-ctestgen doctor failed}"
  return 1
}
finish() { if [ "$fails" -gt 0 ]; then echo "$fails check(s) failed" >&2; exit 1; fi; echo "all checks passed"; exit 0; }

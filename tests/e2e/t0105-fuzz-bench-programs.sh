#!/usr/bin/env bash
# t0105-fuzz-bench-programs: the programs of bench/fuzz build with ctestgen,
# and each error is reachable: bench/fuzz-programs/witnesses/NAME, replayed
# with `ctestgen replay --corpus`, reaches reach_error.  When afl-clang-fast
# is installed, the same witness also crashes the AFL++ build of each
# Test-Comp harness linked with bench/fuzz-drivers/afl_testcomp.c, so the
# driver decodes inputs as the runtime and the replay do.
. "$(dirname "$0")/lib.sh"

B="$CTG_SOURCE_DIR/bench"
n=0
for p in "$B"/fuzz-programs/*.c; do
  name=$(basename "$p" .c)
  n=$((n + 1))
  check "$name: ctestgen build" bash -c "'$CTESTGEN' build '$p' >'$T/$name.build' 2>&1"
  check "$name: one error site" grep -q 'error sites 1$' "$T/$name.build"
  "$CTESTGEN" replay --corpus "$B/fuzz-programs/witnesses/$name" "$p" >"$T/$name.replay" 2>&1 ||
    fail "$name: replay: $(tail -1 "$T/$name.replay")"
  check "$name: the witness reaches reach_error" grep -q '^reach_error: reached' "$T/$name.replay"
done
check "at least 10 programs ($n)" [ "$n" -ge 10 ]
check "at least 3 libFuzzer targets" [ "$(grep -L '^int main' "$B"/fuzz-programs/*.c | wc -l)" -ge 3 ]

if command -v afl-clang-fast >/dev/null; then
  clang-14 -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -c "$B/fuzz-drivers/afl_testcomp.c" \
    -o "$T/driver.o" || fail "afl_testcomp.c compiles"
  for p in $(grep -l '^int main' "$B"/fuzz-programs/*.c); do
    name=$(basename "$p" .c)
    AFL_CC=clang-14 AFL_QUIET=1 afl-clang-fast -O2 -w "$p" "$T/driver.o" -o "$T/$name.afl" >/dev/null 2>&1 ||
      { fail "$name: afl-clang-fast"; continue; }
    ("$T/$name.afl" <"$B/fuzz-programs/witnesses/$name"; exit $?) >/dev/null 2>&1
    check "$name: the AFL++ build aborts on the witness" [ $? = 134 ]
    ("$T/$name.afl" </dev/null; exit $?) >/dev/null 2>&1
    check "$name: the AFL++ build runs an empty input" [ $? != 134 ]
  done
else
  ok "afl-clang-fast not installed: AFL++ driver checks skipped"
fi
finish

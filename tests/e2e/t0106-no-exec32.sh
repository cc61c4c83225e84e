#!/usr/bin/env bash
# t0106-no-exec32: on a host that cannot execute 32-bit programs (pretended
# with CTESTGEN_NO_EXEC32=1, the variable the probe honours), `--arch 32`
# and `-m32` stop before building with one line naming the cause and the
# way out; `ctestgen doctor` says so; 64-bit runs are unaffected.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

# expect_fail DESC PATTERN COMMAND...: non-zero exit, one stderr line with PATTERN.
expect_fail() {
  local d=$1 pat=$2; shift 2
  if "$@" >"$T/out" 2>"$T/err"; then fail "$d: exited 0"; return; fi
  if [ "$(grep -c . "$T/err")" = 1 ] && grep -q -- "$pat" "$T/err"; then ok "$d"; else
    fail "$d: stderr is not one line with '$pat': $(cat "$T/err")"; fi
}

export CTESTGEN_NO_EXEC32=1
expect_fail "run --arch 32 refused" "ia32_emulation=on" \
  "$CTESTGEN" run "$EX/triangle.c" --arch 32 --max-execs 10 -o "$T/o32"
check "nothing built" [ -z "$(ls -A "$T/cache" 2>/dev/null)" ]
check "no output directory" [ ! -e "$T/o32" ]
expect_fail "build -m32 refused" "run as 64-bit" "$CTESTGEN" build -m32 "$EX/triangle.c"
"$CTESTGEN" doctor >"$T/doc" 2>&1
check "doctor: exec32 no with the reason" grep -q "^exec32 *no: .*CTESTGEN_NO_EXEC32" "$T/doc"
check "doctor: exits 0 (64-bit works)" "$CTESTGEN" doctor
check "64-bit run unaffected" "$CTESTGEN" run "$EX/triangle.c" --strategy random --max-execs 200 -q -o "$T/o64"
check "64-bit suite written" [ -s "$T/o64/test-suite/metadata.xml" ]
unset CTESTGEN_NO_EXEC32
"$CTESTGEN" doctor >"$T/doc" 2>&1
check "doctor: one exec32 line without the variable" [ "$(grep -c '^exec32 ' "$T/doc")" = 1 ]
# the tools ctestgen uses, each with its version and what it is for
check "doctor: clang with its version" grep -q '^clang-14 *yes: .*14\.' "$T/doc"
check "doctor: gcov with its version" grep -q '^gcov *yes: .*[0-9]' "$T/doc"
check "doctor: Z3 and LLVM, linked in" bash -c "grep -q '^z3 *yes: [0-9]' '$T/doc' && grep -q '^llvm *yes: 14' '$T/doc'"
PATH=/nonexistent "$CTESTGEN" doctor >"$T/doc2" 2>&1; rc=$?
check "doctor: gcov missing is named with the feature and the fix (exit $rc)" \
  bash -c "[ $rc = 1 ] && grep -q '^gcov *no: needed: .*apt-get install gcc' '$T/doc2'"

# The runtime directory's prebuilt probe32 answers (no probe is compiled):
# a probe32 that fails makes the host one that cannot run 32-bit programs.
RT=$(dirname "$CTESTGEN")/rt
if [ -x "$RT/probe32" ]; then
  cp -r "$RT" "$T/rt"
  printf '#!/bin/sh\nexit 3\n' > "$T/rt/probe32"
  CTESTGEN_RUNTIME_DIR="$T/rt" "$CTESTGEN" doctor >"$T/doc" 2>&1
  check "doctor: the prebuilt probe is what answers" grep -q "^exec32 *no: .*did not run correctly" "$T/doc"
  expect_fail "run --arch 32 refused by the prebuilt probe" "did not run correctly" \
    env CTESTGEN_RUNTIME_DIR="$T/rt" "$CTESTGEN" run "$EX/triangle.c" --arch 32 --max-execs 10 -o "$T/o32b"
else
  echo "# no 32-bit runtime built: prebuilt probe checks skipped"
fi
finish

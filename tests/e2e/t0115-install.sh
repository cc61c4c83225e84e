#!/usr/bin/env bash
# t0115-install: `cmake --install` (make install) puts ctestgen in
# PREFIX/bin and its runtime in PREFIX/lib/ctestgen/rt; the installed binary,
# run from elsewhere, builds, searches and replays without the build tree.
. "$(dirname "$0")/lib.sh"
cmake --install "$CTG_BUILD_DIR" --prefix "$T/prefix" >"$T/install.log" 2>&1 ||
    fail "cmake --install exits 0: $(tail -1 "$T/install.log")"
I=$T/prefix/bin/ctestgen
check "the binary is installed" [ -x "$I" ]
check "the 64-bit runtime is installed" [ -f "$T/prefix/lib/ctestgen/rt/libctg_rt64.a" ]
check "the replay harness is installed" [ -f "$T/prefix/lib/ctestgen/rt/replay_harness.c" ]
check "doctor finds the installed runtime" sh -c "cd '$T' && env -u CTESTGEN_RUNTIME_DIR '$I' doctor | grep -q '^runtime64 *yes'"
(cd "$T" && env -u CTESTGEN_RUNTIME_DIR "$I" run "$EX/cgi_decode.c" --max-execs 3000 --seed 1 -q -o "$T/out") ||
    fail "the installed binary runs (default strategy: fuzz, MIO, concolic)"
check "it wrote a suite" [ "$(ls "$T/out/test-suite" | grep -c '^test-')" -ge 1 ]
(cd "$T" && env -u CTESTGEN_RUNTIME_DIR "$I" replay "$T/out" "$EX/cgi_decode.c" >"$T/replay.txt") ||
    fail "the installed binary replays"
check "its replay counts branches" grep -q '^branches: [1-9]' "$T/replay.txt"
finish

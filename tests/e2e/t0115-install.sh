#!/usr/bin/env bash
# t0115-install: `cmake --install` (make install, DESTDIR staged) puts
# ctestgen in PREFIX/bin, its runtime in PREFIX/lib/ctestgen/rt and its
# manual page (generated from the options tables) in PREFIX/share/man/man1;
# the installed binary, run from elsewhere, builds, searches and replays
# without the build tree; ctestgen-cc is installed beside it and works.
. "$(dirname "$0")/lib.sh"
# staged as a package build does: DESTDIR + PREFIX
DESTDIR="$T/stage" cmake --install "$CTG_BUILD_DIR" --prefix /usr/local >"$T/install.log" 2>&1 ||
    fail "cmake --install exits 0: $(tail -1 "$T/install.log")"
mv "$T/stage/usr/local" "$T/prefix" # where it will run from: anywhere
I=$T/prefix/bin/ctestgen
M=$T/prefix/share/man/man1/ctestgen.1
check "the manual page is installed" [ -s "$M" ]
check "the manual page lists the options --help lists" \
  bash -c "'$I' --help | grep -q -- '--max-execs' && grep -q 'max\\\\-execs' '$M' && grep -q 'Options of \\\\-\\\\-strategy fuzz' '$M'"
if command -v man >/dev/null; then
  check "man renders it" bash -c "MANWIDTH=80 man -l '$M' 2>/dev/null | grep -q 'test generation for C programs'"
else
  echo "skip: man not installed: the page is not rendered"
fi
check "the binary is installed" [ -x "$I" ]
check "the compiler wrapper is installed beside it" [ -x "$T/prefix/bin/ctestgen-cc" ]
check "the installed wrapper compiles (and records) a file" bash -c "cd '$T' && \
  '$T/prefix/bin/ctestgen-cc' -c '$EX/triangle.c' -o tri.o && readelf -p .ctestgen tri.o | grep -q triangle.c"
check "the 64-bit runtime is installed" [ -f "$T/prefix/lib/ctestgen/rt/libctg_rt64.a" ]
check "the replay harness is installed" [ -f "$T/prefix/lib/ctestgen/rt/replay_harness.c" ]
if [ -x "$(dirname "$CTESTGEN")/rt/probe32" ]; then
  check "the 32-bit probe is installed executable" [ -x "$T/prefix/lib/ctestgen/rt/probe32" ]
fi
check "doctor finds the installed runtime" sh -c "cd '$T' && env -u CTESTGEN_RUNTIME_DIR '$I' doctor | grep -q '^runtime64 *yes'"
(cd "$T" && env -u CTESTGEN_RUNTIME_DIR "$I" run "$EX/cgi_decode.c" --max-execs 3000 --seed 1 -q -o "$T/out") ||
    fail "the installed binary runs (default strategy: fuzz, MIO, concolic)"
check "it wrote a suite" [ "$(ls "$T/out/test-suite" | grep -c '^test-')" -ge 1 ]
(cd "$T" && env -u CTESTGEN_RUNTIME_DIR "$I" replay "$T/out" "$EX/cgi_decode.c" >"$T/replay.txt") ||
    fail "the installed binary replays"
check "its replay counts branches" grep -q '^branches: [1-9]' "$T/replay.txt"
finish

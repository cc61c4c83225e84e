#!/usr/bin/env bash
# t0119-huge: a huge generated program (bench/huge/gen-eca.sh, a RERS-style
# state machine, functions of tens of thousands of instructions) builds its
# binaries at -O0 while a small one stays at -O2; `ctestgen build` prints
# its stage times.  With a time budget, the search starts on prog.cov while
# prog.sym is built in the background: the first test is written before
# prog.sym is ready, concolic execution joins afterwards, and --time counts
# the build (20 s: prog.sym takes 3-5 s alone, more than 8 under ctest -j2).
# With an execution budget prog.sym is built first (the run
# stays reproducible).
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"
GEN="$CTG_SOURCE_DIR/bench/huge/gen-eca.sh"
"$GEN" 120 > "$T/huge.c"
check "the generator is deterministic" cmp -s "$T/huge.c" <("$GEN" 120)

"$CTESTGEN" build "$T/huge.c" -s concolic > "$T/build.out" 2>&1
check "huge: build prints its stages" grep -q "^stages .*compile .*passes .*prog.cov" "$T/build.out"
check "huge: prog.cov and prog.sym at -O0" grep -q "prog.cov -O0 .*prog.sym -O0" "$T/build.out"
"$CTESTGEN" build "$CTG_SOURCE_DIR/examples/cgi_decode.c" -s concolic > "$T/small.out" 2>&1
check "small: prog.cov and prog.sym at -O2" grep -q "prog.cov -O2 .*prog.sym -O2" "$T/small.out"
"$CTESTGEN" build "$CTG_SOURCE_DIR/examples/cgi_decode.c" > "$T/cached.out" 2>&1
check "a cached build prints no stages" sh -c "! grep -q '^stages' '$T/cached.out'"

# prog.cov of a huge program comes from LLVM's code generator inside
# ctestgen: the program's constructors still run before main
sed 's/^int main(void) {$/static int ctor_ran;\n__attribute__((constructor)) static void ctor(void) { ctor_ran = 1; }\nint main(void) {\n  if (!ctor_ran) reach_error();/' \
  "$T/huge.c" > "$T/ctor.c"
"$CTESTGEN" run "$T/ctor.c" --strategy random --max-execs 50 -q -o "$T/ctor" --no-replay-check
check "huge: the constructor ran (no error)" [ "$(stat errors.reached "$T/ctor")" = 0 ]
check "huge: and the run covered code" [ "$(stat edges.covered "$T/ctor")" -gt 10 ]

rm -rf "$T/cache"
"$CTESTGEN" run "$T/huge.c" --time 20 -o "$T/run" -v --no-replay-check > "$T/run.out" 2>&1
first=$(stat tests.first_s "$T/run"); ready=$(stat build.sym_ready_s "$T/run")
check "time budget: the build is counted (build.seconds > 0)" \
  awk -v b="$(stat build.seconds "$T/run")" 'BEGIN { exit !(b > 0) }'
check "time budget: first test ($first s) before prog.sym is ready ($ready s)" \
  awk -v f="$first" -v r="$ready" 'BEGIN { exit !(f > 0 && r > f) }'
check "time budget: concolic joins once prog.sym is built" [ "$(stat auto.slices.concolic "$T/run")" -gt 0 ]
check "time budget: the log says so" grep -q "prog.sym is built" "$T/run.out"
check "no build process is left" sh -c "! pgrep -f '$(basename "$T")/cach[e]' >/dev/null"
check "no temporary build directory is left" sh -c "! ls -d '$T'/cache/*/sym.tmp.* 2>/dev/null"

# --jobs 2: one background build, both workers pick prog.sym up when it is
# there (both run the concolic member: by default only worker 0 does)
rm -rf "$T/cache"
"$CTESTGEN" run "$T/huge.c" --jobs 2 --time 10 --auto-arms fuzz,mio,concolic -o "$T/jobs" -q \
  --no-replay-check > "$T/jobs.out" 2>&1
check "--jobs 2: the run ends well" [ $? = 0 ]
# (on a loaded host the background build may still be running when the
# budget ends, and is stopped: then there is nothing to pick up; a build
# that ended 2 s before the run did must have been picked up by both)
end=$(date +%s)
sym=$(ls "$T"/cache/*/prog.sym 2>/dev/null | head -1)
if [ -n "$sym" ] && [ "$(command stat -c %Y "$sym")" -le $((end - 2)) ]; then
  for k in 0 1; do
    check "--jobs 2: worker $k got prog.sym from the background build" \
      awk -v r="$(stat jobs.w$k.sym_ready_s "$T/jobs")" 'BEGIN { exit !(r > 0) }'
  done
else
  echo "note: --jobs 2: prog.sym was not built 2 s before the 10 s budget ended (a loaded host); pick-up not checked"
fi
check "--jobs 2: prog.sym built (no build.sym_error in stats.json)" \
  [ -z "$(jq -r '.info["build.sym_error"] // ""' "$T/jobs/stats.json")" ]
check "--jobs 2: no build process is left" sh -c "! pgrep -f '$(basename "$T")/cach[e]' >/dev/null"
check "--jobs 2: no temporary build directory is left" sh -c "! ls -d '$T'/cache/*/sym.tmp.* 2>/dev/null"

rm -rf "$T/cache"
"$CTESTGEN" run "$T/huge.c" --time 0.1 -o "$T/short" --no-replay-check > "$T/short.out" 2>&1
check "a budget the build used up: exit 0" [ $? = 0 ]
check "a budget the build used up: a warning says so" grep -q "no time is left to search; give a larger --time" "$T/short.out"
check "a budget the build used up: the empty test is kept" [ "$(stat tests "$T/short")" = 1 ]

"$CTESTGEN" run "$T/huge.c" --max-execs 1600 -o "$T/execs" -q --no-replay-check
check "execution budget: prog.sym built before the search" [ "$(stat build.sym_ready_s "$T/execs")" = 0 ]
check "execution budget: concolic ran" [ "$(stat auto.slices.concolic "$T/execs")" -gt 0 ]
finish

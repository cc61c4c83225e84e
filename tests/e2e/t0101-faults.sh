#!/usr/bin/env bash
# t0101-faults: programs that segfault, abort, hang, recurse without end,
# write far past the end of a mapping, malloc 100 GB (or check malloc for
# NULL), fork in a loop, flood stdout or read stdin.  ctestgen must
# complete its execution budget, classify every run, record the crashes and
# exit 0.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
# a cache of its own: the orphan check below looks for this test's
# prog.cov only (tests running alongside kill ctestgen on purpose, and
# their fork servers outlive it for a moment)
export CTESTGEN_CACHE="$T/cache"

# run_prog NAME BUDGET [extra options]: runs ctestgen, checks exit 0 and budget.
run_prog() {
  local name=$1 budget=$2; shift 2
  if ! "$CTESTGEN" run "$PROGS/$name.c" --strategy random --seed 1 --max-execs "$budget" \
       --timeout-ms 2000 --keep-going -o "$T/$name" -q "$@" 2>"$T/$name.err"; then
    fail "$name: ctestgen exited non-zero: $(cat "$T/$name.err")"; return 1
  fi
  local n; n=$(stat execs "$T/$name")
  [ "$n" = "$budget" ] || fail "$name: $n executions instead of $budget"
}
# sum of run counters
runs() { local d=$1 s=0; shift; for k in "$@"; do s=$((s + $(stat "runs.$k" "$d"))); done; echo $s; }

run_prog segfault 200 && {
  check "segfault: crashes classified" [ "$(stat runs.crash "$T/segfault")" -gt 0 ]
  check "segfault: all runs are normal or crash" [ "$(runs "$T/segfault" normal crash)" = 200 ]
  check "segfault: crash file with reproduce command" grep -q "CTESTGEN_INPUT=" "$T"/segfault/crashes/crash-*.txt
}
run_prog abort 200 && {
  check "abort: aborts classified" [ "$(stat runs.abort "$T/abort")" -gt 0 ]
  check "abort: all runs are normal or abort" [ "$(runs "$T/abort" normal abort)" = 200 ]
}
run_prog loop 5 --timeout-ms 300 && {
  check "loop: timeouts classified" [ "$(stat runs.timeout "$T/loop")" -gt 0 ]
  check "loop: all runs are normal or timeout" [ "$(runs "$T/loop" normal timeout)" = 5 ]
}
run_prog recurse 5 && {
  check "recurse: stack overflow is a crash" [ "$(runs "$T/recurse" crash normal)" = 5 ]
  check "recurse: at least one crash" [ "$(stat runs.crash "$T/recurse")" -gt 0 ]
  check "recurse: stack overflow named" grep -qi "stack" "$T"/recurse/crashes/crash-*.txt
}
run_prog overflow 300 && {
  check "overflow past a mapping: a crash, not damage to the runtime's regions" \
    [ "$(stat runs.crash "$T/overflow")" -gt 0 ]
  check "overflow past a mapping: all runs are normal or crash (no fake error)" \
    [ "$(runs "$T/overflow" normal crash)" = 300 ]
  check "overflow past a mapping: every test is written" bash -c \
    "[ $(stat tests "$T/overflow") -ge 1 ] && ! grep -q 'cannot have' '$T/overflow.err'"
}
run_prog bigmalloc 5 && check "bigmalloc: out of memory classified" [ "$(stat runs.oom "$T/bigmalloc")" = 5 ]
run_prog forkloop 5 && check "forkloop: fork is refused, runs end normally" [ "$(stat runs.normal "$T/forkloop")" = 5 ]
run_prog flood 3 --timeout-ms 5000 && check "flood: runs end normally" [ "$(stat runs.normal "$T/flood")" = 3 ]
run_prog readstdin 20 && check "readstdin: stdin is closed, runs end normally" [ "$(stat runs.normal "$T/readstdin")" = 20 ]
# --malloc-fail: by default a failed allocation ends the run (oom); with
# null the program sees NULL and its check is covered (exit code 3).
run_prog mallocnull 300 && \
  check "mallocnull: by default huge allocations end as oom" [ "$(stat runs.oom "$T/mallocnull")" -gt 0 ]
"$CTESTGEN" run "$PROGS/mallocnull.c" --strategy random --seed 1 --max-execs 300 --malloc-fail null \
  -o "$T/mnull" -q || fail "mallocnull --malloc-fail null: exited non-zero"
check "mallocnull --malloc-fail null: no run ends as oom" [ "$(stat runs.oom "$T/mnull")" = 0 ]
check "mallocnull --malloc-fail null: covers more branches" \
  [ "$(stat edges.covered "$T/mnull")" -gt "$(stat edges.covered "$T/mallocnull")" ]
"$CTESTGEN" run "$PROGS/mallocnull.c" --malloc-fail sometimes -o "$T/mbad" >/dev/null 2>"$T/mbad.err"
check "--malloc-fail sometimes: a usage error" grep -q "must be stop or null" "$T/mbad.err"

# Orphaned children of the program under test would have init as parent (the
# fork servers of tests running alongside have a ctestgen parent).
check "no orphaned processes of the program under test" \
  [ -z "$(ps -eo ppid=,args= | awk -v t="$T/cache/" '$1 == 1 && /prog\.cov/ && index($0, t)' || true)" ]
finish

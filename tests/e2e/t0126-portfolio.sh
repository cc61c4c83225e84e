#!/usr/bin/env bash
# t0126-portfolio: the default (auto) on the kinds of program where it used
# to lose to one of its members (issue 60), each with a fixed seed and an
# execution budget.  A stdin program whose crash needs a linear relation
# between three scanf'd numbers and a keyword: the default covers every
# edge and records the crash.  A program that reads 100,000 values and
# decides on the last: the default reaches the error and gcc's replay of
# the suite reaches it too; concolic alone reaches it through a window on
# the input's end (its trace cannot hold 100,000 values).  `--jobs 2` at
# the same executions per worker covers at least what one job covers, and
# finds the crash.  A run shorter than prog.sym's build leaves the build to
# finish into the cache, and says how long its build took.  A bad
# --auto-stall-s is a one-line error.
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

L="$PROGS/stdin_linear.c"
"$CTESTGEN" run "$L" --max-execs 3000 --seed 1 -o "$T/lin" >"$T/lin.out" 2>&1 \
  || fail "default run on stdin_linear.c: $(tail -3 "$T/lin.out")"
check "stdin, linear relation + keyword: every edge ($(stat edges.covered "$T/lin")/14)" \
  [ "$(stat edges.covered "$T/lin")" = 14 ]
check "stdin, linear relation + keyword: the crash is recorded" grep -q "segv in main at .*stdin_linear.c:" "$T/lin.out"
check "stdin, linear relation + keyword: within the budget ($(stat execs "$T/lin"))" [ "$(stat execs "$T/lin")" -le 3000 ]
check "stdin, linear relation + keyword: the concolic member found goals" \
  [ "$(stat auto.goals.concolic "$T/lin")" -ge 1 ]

G="$PROGS/long_last.c"
"$CTESTGEN" run "$G" --max-execs 3000 --seed 1 -o "$T/long" >"$T/long.out" 2>&1 \
  || fail "default run on long_last.c: $(tail -3 "$T/long.out")"
check "100,000 values, the last decides: the default reaches the error" [ "$(stat errors.reached "$T/long")" = 1 ]
check "100,000 values, the last decides: gcc's replay reaches it too" grep -q "gcov replay .*error reached" "$T/long.out"
"$CTESTGEN" run "$G" --strategy concolic --max-execs 3000 --seed 1 -o "$T/longc" -q --no-replay-check
check "100,000 values: concolic alone reaches the error" [ "$(stat errors.reached "$T/longc")" = 1 ]
check "100,000 values: through a window on the input's end ($(stat concolic.windowed_runs "$T/longc") runs)" \
  [ "$(stat concolic.windowed_runs "$T/longc")" -ge 1 ]
check "100,000 values: prog.cov's bound grew past the input ($(stat exec.extend_limit "$T/longc"))" \
  [ "$(stat exec.extend_limit "$T/longc")" -ge 400000 ]

"$CTESTGEN" run "$L" --jobs 2 --max-execs 6000 --seed 1 -o "$T/j2" -q --no-replay-check
check "--jobs 2, 3000 executions each: at least one job's edges ($(stat edges.covered "$T/j2"))" \
  [ "$(stat edges.covered "$T/j2")" -ge "$(stat edges.covered "$T/lin")" ]
check "--jobs 2: the crash too" [ "$(stat crashes "$T/j2")" -ge 1 ]

# a first run whose budget is shorter than prog.sym's build: the build goes
# on after the run, at the lowest priority, and lands in the cache (before,
# it was killed, and every short run of the program started from nothing)
python3 -c "
print('extern int __VERIFIER_nondet_int(void);')
print('int main(void) { int c = 0;')
for i in range(3000): print('  if (__VERIFIER_nondet_int() == %d) c += %d;' % (i * 7 + 3, i % 5 + 1))
print('  return c; }')" >"$T/big.c"
CTESTGEN_CACHE="$T/bigcache" "$CTESTGEN" run "$T/big.c" --time 0.5 -o "$T/big" >"$T/big.out" 2>&1
check "a short first run: the summary parts build and search" grep -qE "^  wall time  +build [0-9.]+s, search [0-9.]+s" "$T/big.out"
check "a short first run: build.seconds in stats.json" [ "$(jq '.counters["build.seconds"] > 0' "$T/big/stats.json")" = true ]
check "a short first run: prog.sym was not ready within it" [ "$(stat build.sym_ready_s "$T/big")" = 0 ]
for _ in $(seq 1 600); do ls "$T"/bigcache/*/prog.sym >/dev/null 2>&1 && break; sleep 0.2; done
check "a short first run: prog.sym's build finished into the cache after it" bash -c "ls '$T'/bigcache/*/prog.sym >/dev/null"
CTESTGEN_CACHE="$T/bigcache" "$CTESTGEN" run "$T/big.c" --time 2 -o "$T/big2" -q --no-replay-check
check "the next run has prog.sym from its start (concolic ran: $(stat auto.execs.concolic "$T/big2"))" \
  [ "$(stat auto.execs.concolic "$T/big2")" -gt 0 ]

"$CTESTGEN" run "$L" --time 1 --auto-stall-s soon -o "$T/bad" >"$T/bad.out" 2>&1
rc=$?
check "--auto-stall-s soon: a non-zero exit code ($rc), as every strategy option's" [ $rc != 0 ]
check "--auto-stall-s soon: one line naming the option and the fix" \
  bash -c "[ \$(wc -l <'$T/bad.out') = 1 ] && grep -q -- '--auto-stall-s.*soon.*auto' '$T/bad.out'"
finish

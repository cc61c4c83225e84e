#!/usr/bin/env bash
# t0113-reactive: a program that reads inputs in an endless loop.  Every
# strategy's runs end as "ran out" once they have drawn --extend-limit bytes
# past their test (random or zero extension, or zeros after the input), as
# TestCov ends a test whose values run out: no run times out, the suite
# reaches the error, and its replay agrees with the engine.  The bound is
# what --extend-limit says.  A program that reads 400,000 values (1.6 MB)
# and then ends by itself is not cut short: a probe that runs out at the
# 1 MiB it starts with doubles, and once one ends on its own the bound
# grows, so the suite holds a test with every value and gcov's replay
# reaches the error behind them.  A probe is a measurement run before a
# normal one, never a test.  A reactive program whose error needs 20 inputs
# in sequence is covered within a fixed budget by auto and concolic.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

# --timeout-ms 1000: a run that ends at the bound takes milliseconds; the
# calibrated limit (50 ms and up) can cut one short on a loaded host
for s in auto random fuzz concolic mosa mio; do
  "$CTESTGEN" run "$PROGS/reactive.c" --strategy $s --max-execs 1500 --timeout-ms 1000 -o "$T/$s" >"$T/$s.out" 2>&1
  runs=$(stat execs "$T/$s"); tmo=$(stat runs.timeout "$T/$s")
  check "$s: no run times out ($tmo of $runs)" [ "$tmo" = 0 ]
done
# a probe (1 MiB and more: 262,144 values) is a measurement, never a test
# (before it was, the suites of both held one of 263,168 and more)
for s in mio fuzz; do
  "$CTESTGEN" run "$PROGS/reactive20.c" --strategy $s --max-execs 1500 --keep-going --seed 1 \
      -o "$T/probe$s" -q --no-replay-check
  check "$s: the runs were probed ($(stat runs.probes "$T/probe$s"))" [ "$(stat runs.probes "$T/probe$s")" -gt 0 ]
  read -r most _ < <(longest_test "$T/probe$s")
  check "$s: no test holds a probe's values ($most)" [ "$most" -lt 100000 ]
done
check "auto: the error is reached" [ "$(stat errors.reached "$T/auto")" = 1 ]
check "auto: gcov's replay reaches it too" grep -q "gcov replay .*error reached" "$T/auto.out"

check "fuzz: runs end at the extension bound" [ "$(stat runs.extend_limit "$T/fuzz")" -gt 0 ]
"$CTESTGEN" run "$PROGS/reactive.c" --strategy random --max-execs 300 --extend-limit 64 --timeout-ms 1000 \
    -o "$T/small" -q --no-replay-check
check "--extend-limit 64: runs end at the bound" [ "$(stat runs.extend_limit "$T/small")" -gt 0 ]
check "--extend-limit 64: still no timeout" [ "$(stat runs.timeout "$T/small")" = 0 ]

"$CTESTGEN" run "$PROGS/longread.c" --strategy random --max-execs 400 --seed 1 -o "$T/long" >"$T/long.out" 2>&1
check "longread: the probes grew past 1 MiB ($(stat exec.probe_max "$T/long"))" \
  [ "$(stat exec.probe_max "$T/long")" -gt 1048576 ]
check "longread: the bound grew to hold 400,000 values" [ "$(stat exec.extend_limit "$T/long")" -ge 1600000 ]
check "longread: the error is reached" [ "$(stat errors.reached "$T/long")" = 1 ]
check "longread: gcov's replay reaches it too" grep -q "gcov replay .*error reached" "$T/long.out"

# 20 inputs in sequence, within a fixed budget: concolic's runs stop 256
# bytes past their test (not at the 16 KiB of the others), so its paths
# stay short instead of holding ~10,000 branches on zeros
for s in auto concolic; do
  "$CTESTGEN" run "$PROGS/reactive20.c" --strategy $s --max-execs 8000 --seed 1 -o "$T/r20$s" \
      >"$T/r20$s.out" 2>&1
  check "reactive20, $s: the error behind 20 inputs is reached" [ "$(stat errors.reached "$T/r20$s")" = 1 ]
  check "reactive20, $s: gcov's replay reaches it too" grep -q "gcov replay .*error reached" "$T/r20$s.out"
done
# a program that reads 100 values and then ends: concolic's first run stops
# at 64 of them, a run of prog.cov shows it ends by itself after 100, and
# prog.sym's bound grows to hold them, so the decision behind them is seen
"$CTESTGEN" run "$PROGS/read100.c" --strategy concolic --max-execs 1000 --seed 1 -o "$T/r100" \
    >"$T/r100.out" 2>&1
check "read100: prog.sym's bound holds 100 values ($(stat exec.sym_extend_limit "$T/r100"))" \
  [ "$(stat exec.sym_extend_limit "$T/r100")" -ge 400 ]
check "read100: concolic reaches the error behind them" [ "$(stat errors.reached "$T/r100")" = 1 ]
pc=$(stat concolic.pc_max "$T/r20concolic")
check "reactive20: concolic's paths stay short ($pc branches)" [ "$pc" -lt 2000 ]
finish

#!/usr/bin/env bash
# t0108-hang: a program that hangs (busy loop, sleep) on two thirds of its
# inputs.  With the calibrated timeout (--timeout-ms auto, the default) the
# fuzzer reaches the easy error within a small execution budget, the hangs
# are one hang record in crashes/, no kept test hangs in the replay, and
# --timeout-ms still sets a fixed timeout.  (bench/hang measures the time.)
# LABELS: asan
. "$(dirname "$0")/lib.sh"

P="$PROGS/hang.c"
"$CTESTGEN" run "$P" --strategy fuzz --max-execs 3000 --stop-on-error --seed 1 -q -o "$T/a" \
  || fail "run failed"
check "error reached within 3000 executions" [ "$(stat errors.reached "$T/a")" = 1 ]
check "some runs hung" [ "$(stat runs.timeout "$T/a")" -gt 0 ]
tmo=$(stat executor.timeout_ms "$T/a")
check "timeout calibrated below the 1000 ms cap ($tmo ms)" [ "$tmo" -ge 20 -a "$tmo" -lt 1000 ]
check "hangs kept as one hang record" [ "$(ls "$T/a/crashes" | grep -c '^timeout-[0-9]*$')" = 1 ]
"$CTESTGEN" replay "$T/a" "$P" >"$T/replay" 2>&1 || fail "replay failed: $(cat "$T/replay")"
check "replay: the error is reached" grep -q "reach_error: reached" "$T/replay"
check "replay: no kept test hangs" bash -c "! grep -q 'timed out' '$T/replay'"
for f in "$T"/a/test-suite/test-*.xml; do
  n=$(grep -c '<input' "$f")
  [ "$n" -ge 1 ] || fail "$f: no input"
done

"$CTESTGEN" run "$P" --strategy random --max-execs 4 --timeout-ms 300 --seed 1 -q -o "$T/b" || fail "run b failed"
check "--timeout-ms 300 is kept fixed" [ "$(stat executor.timeout_ms "$T/b")" = 300 ]
check "--timeout-ms: runs are not rechecked" [ "$(stat executor.timeout_rechecks "$T/b")" = 0 ]
"$CTESTGEN" run "$P" --timeout-ms soon -o "$T/c" >/dev/null 2>"$T/err"
check "--timeout-ms soon is a usage error" grep -q "must be auto or between" "$T/err"
finish

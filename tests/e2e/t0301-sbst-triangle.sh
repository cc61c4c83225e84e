#!/usr/bin/env bash
# t0301-sbst-triangle: the search-based strategies on seed 001's triangle in
# function mode.  mio and mosa cover every branch of triangle_fn.c (checked
# independently by replay), the regression tests compile with -Wall -Werror
# and pass, a seed reproduces its suite, and bad strategy options are refused.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

lib="$EX/triangle_fn.c"
# values in +-1,000,000 (the seed's MAX), so a + b cannot overflow
run() { "$CTESTGEN" run "$lib" --function triangle --strategy "$1" --int-range 1000000 \
          --max-execs "$2" --seed "${4:-1}" -o "$3" -q; }
libcov() { "$CTESTGEN" replay "$1" "$lib" | sed -n "s|^  $lib: branches \([0-9]*/[0-9]*\).*|\1|p"; }

for s in mio mosa dynamosa wts; do
  check "$s runs" run $s 3000 "$T/$s"
  check "$s: driver written" [ -f "$T/$s/driver_triangle.c" ]
done
check "every value within +-1,000,000" bash -c "! grep -h '<input' '$T'/*/test-suite/test-*.xml | sed 's/<[^>]*>//g' | awk '\$1 > 1000000 || \$1 < -1000000' | grep -q ."
for s in mio mosa; do
  c=$(libcov "$T/$s")
  check "$s covers every branch of triangle_fn.c by replay ($c)" [ "$c" = "22/22" ]
  check "$s stopped early: every goal covered" [ "$(stat execs "$T/$s")" -lt 3000 ]
done

# the regression tests: strict build, all pass, and they can fail
t="$T/mio/tests_triangle.c"
check "tests_triangle.c has one test per kept test" \
  [ "$(grep -c '^static void test_' "$t")" = "$(ls "$T/mio/test-suite"/test-*.xml | wc -l)" ]
check "tests_triangle.c compiles with -Wall -Werror" gcc -Wall -Werror -o "$T/tt" "$t" "$lib"
check "tests_triangle.c passes" bash -c "'$T/tt' | grep -q ' 0 failed'"
sed 's/return 2; \/\* isosceles \*\//return 5;/' "$lib" >"$T/mutant.c"
gcc -w -o "$T/tm" "$t" "$T/mutant.c"
check "tests_triangle.c catches a changed result" bash -c "! '$T/tm' >/dev/null 2>&1"

# reproducible
check "second mio run" run mio 3000 "$T/mio2"
check "same seed, same suite" diff -r -x metadata.xml "$T/mio/test-suite" "$T/mio2/test-suite"

# options
if "$CTESTGEN" run "$lib" --function triangle --strategy mosa --crossover bogus -o "$T/x" -q 2>"$T/err"; then
  fail "bad --crossover accepted"
else
  check "bad --crossover named" grep -q "crossover" "$T/err"
fi
check "wts with the seed's plain operators runs" "$CTESTGEN" run "$lib" --function triangle \
  --strategy wts --selection plain --elitism plain --suite-crossover variable --suite-mutation set \
  --fixed-steps --p-copy 0 --p-tied 0 --p-pool 0 --max-execs 1000 -o "$T/plain" -q
check "stats.json has the wts counters" [ "$(stat wts.generations "$T/plain")" -gt 0 ]
# --sbst-as-seed: seed 001's operators and MIO in one switch: no local
# search runs, tests stay within 10 values, and the run still covers
"$CTESTGEN" run "$lib" --function triangle --strategy mio --sbst-as-seed --max-execs 2000 --seed 1 \
  -o "$T/asseed" -q || fail "mio --sbst-as-seed failed"
check "mio --sbst-as-seed: no local search ($(stat mio.avm_runs "$T/asseed") runs)" [ "$(stat mio.avm_runs "$T/asseed")" = 0 ]
check "mio --sbst-as-seed: recorded in info" [ "$(jq -r '.info["opt.sbst-as-seed"]' "$T/asseed/stats.json")" = 1 ]
check "mio --sbst-as-seed: covers edges ($(stat edges.covered "$T/asseed"))" [ "$(stat edges.covered "$T/asseed")" -ge 5 ]
finish

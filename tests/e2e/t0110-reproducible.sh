#!/usr/bin/env bash
# t0110-reproducible: with --max-execs and no --time, two runs with the same
# seed write bit-identical suites (testcases, corpus, crash inputs), for
# every strategy; another seed gives another suite for the randomised ones.
. "$(dirname "$0")/lib.sh"
P="$EX/cgi_decode.c"

# digest DIR: one checksum over the files that carry no clock
digest() {
  (cd "$1" && find test-suite corpus crashes -type f ! -name metadata.xml ! -name '*.txt' \
     -exec md5sum {} + | sort | md5sum | cut -d' ' -f1)
}
strategies=$("$CTESTGEN" --help | sed -n '/^Strategies/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
check "the strategy list is read from --help" [ "$(wc -w <<<"$strategies")" -ge 5 ]
for s in $strategies; do
  for i in 1 2; do
    "$CTESTGEN" run "$P" --strategy "$s" --max-execs 2500 --seed 11 --keep-going -q -o "$T/$s-$i" \
      || fail "$s: run $i failed"
  done
  n=$(ls "$T/$s-1/corpus" | wc -l)
  check "$s: same seed, bit-identical suite ($n tests)" [ "$(digest "$T/$s-1")" = "$(digest "$T/$s-2")" ]
  check "$s: same executions" [ "$(stat execs "$T/$s-1")" = "$(stat execs "$T/$s-2")" ]
done
# a libFuzzer target: the fuzzer runs its mutants in batches of the
# persistent child, and stays reproducible (the default strategy too)
F="$EX/tree_parse.c"
for s in fuzz auto; do
  for i in 1 2; do
    "$CTESTGEN" run "$F" --strategy "$s" --max-execs 20000 --seed 11 -q -o "$T/lf-$s-$i" \
      || fail "libFuzzer target, $s: run $i failed"
  done
  check "libFuzzer target, $s: same seed, bit-identical suite" [ "$(digest "$T/lf-$s-1")" = "$(digest "$T/lf-$s-2")" ]
  check "libFuzzer target, $s: runs in batches" [ "$(stat executor.batched_runs "$T/lf-$s-1")" -gt 1000 ]
done
# path conditions that hold addresses (a pointer computed from an input
# value compared with another): the program runs with the same layout in
# every session, so the solver sees the same constants (before, each run of
# this program gave another suite, with every search order)
Q="$PROGS/ptr_scan.c"
for s in generational param; do
  for i in 1 2 3; do
    "$CTESTGEN" run "$Q" --strategy concolic --search "$s" --search-scope tree --max-execs 400 --seed 11 -q \
      -o "$T/ptr-$s-$i" || fail "ptr_scan, $s: run $i failed"
  done
  d=$(digest "$T/ptr-$s-1" 2>/dev/null)
  check "addresses in path conditions, $s: same seed, bit-identical suites ($(ls "$T/ptr-$s-1/corpus" | wc -l) tests)" \
    [ "$d" = "$(digest "$T/ptr-$s-2" 2>/dev/null)" -a "$d" = "$(digest "$T/ptr-$s-3" 2>/dev/null)" ]
done
"$CTESTGEN" run "$P" --strategy random --max-execs 2500 --seed 12 --keep-going -q -o "$T/random-seed12"
check "random: another seed, another suite" [ "$(digest "$T/random-1")" != "$(digest "$T/random-seed12")" ]
check "--help says only execution budgets reproduce" bash -c "'$CTESTGEN' --help | grep -q 'is not reproducible'"
finish

#!/usr/bin/env bash
# t0109-interrupt-resume: SIGINT (or SIGTERM) finishes the current run,
# writes everything, prints the summary with "interrupted" and exits 130; a
# second signal exits at once; --resume continues in the same output
# directory: nothing on disk is lost or written again, the counters and
# the execution budget count on, coverage does not drop.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$EX/cgi_decode.c"

# wait_for_tests DIR: until DIR holds a few tests (at most ~60 s)
wait_for_tests() {
  for _ in $(seq 600); do
    [ "$(ls "$1/test-suite" 2>/dev/null | grep -c '^test-')" -ge 3 ] && return 0
    sleep 0.1
  done
  return 1
}

"$CTESTGEN" run "$P" --strategy random --keep-going --time 120 --seed 3 -o "$T/a" >"$T/a.out" 2>"$T/a.err" &
pid=$!
wait_for_tests "$T/a" || fail "no test appeared"
sleep 0.5
kill -INT $pid
wait $pid
check "SIGINT: exit code 130" [ $? = 130 ]
check "SIGINT: summary says interrupted" grep -q "stopped: interrupted" "$T/a.out"
check "SIGINT: the error line names --resume" grep -q "interrupted; .*--resume" "$T/a.err"
e1=$(stat execs "$T/a")
check "SIGINT: stats.json has its counters ($e1 execs)" [ "$e1" -gt 0 ]
check "SIGINT: stats.json counts the tests on disk" \
  [ "$(stat tests "$T/a")" = "$(ls "$T/a/test-suite" | grep -c '^test-.*\.xml$')" ]
(cd "$T/a" && find test-suite corpus crashes -type f -exec md5sum {} + | sort >"$T/before.md5")
"$CTESTGEN" replay "$T/a" "$P" >"$T/r1" || fail "replay 1"
b1=$(sed -n 's/^branches: \([0-9]*\)\/.*/\1/p' "$T/r1")

budget=$((e1 + 3000))
"$CTESTGEN" run "$P" --strategy random --keep-going --time 0 --max-execs $budget --seed 3 --resume -q \
  -o "$T/a" >"$T/b.out" 2>"$T/b.err"
check "resume: exit code 0" [ $? = 0 ]
check "resume: the budget counts on (execs = $budget)" [ "$(stat execs "$T/a")" = $budget ]
check "resume: counted as a resume" [ "$(stat resumes "$T/a")" = 1 ]
check "resume: every earlier file is still there, unchanged" \
  bash -c "cd '$T/a' && md5sum --quiet -c '$T/before.md5'"
check "resume: no test written twice (one corpus file per testcase)" \
  [ "$(ls "$T/a/corpus" | wc -l)" = "$(ls "$T/a/test-suite" | grep -c '^test-.*\.xml$')" ]
"$CTESTGEN" replay "$T/a" "$P" >"$T/r2" || fail "replay 2"
b2=$(sed -n 's/^branches: \([0-9]*\)\/.*/\1/p' "$T/r2")
check "resume: coverage kept ($b1 -> $b2 branches)" [ "$b2" -ge "$b1" ]
"$CTESTGEN" run "$P" --resume -o "$T/none" >/dev/null 2>"$T/err"
check "resume of nothing: a one-line error" grep -q "no earlier run to resume" "$T/err"
"$CTESTGEN" run "$P" --resume --force -o "$T/a" >/dev/null 2>"$T/err"
check "--resume with --force refused" grep -q "exclude each other" "$T/err"

mkdir -p "$T/bad" && echo '{"not": "ctestgen"}' >"$T/bad/stats.json"
"$CTESTGEN" run "$P" --resume --max-execs 10 -o "$T/bad" >/dev/null 2>"$T/err"
check "resume of a foreign stats.json: a one-line error" grep -q "cannot resume" "$T/err"
check "resume of a foreign stats.json: the file is left as it was" \
  grep -q '"not": "ctestgen"' "$T/bad/stats.json"

# SIGTERM, and a second signal while a run is still going (a 3 s sleep)
"$CTESTGEN" run "$PROGS/hang.c" --strategy random --time 120 --timeout-ms 3000 -o "$T/c" >"$T/c.out" 2>"$T/c.err" &
pid=$!
for _ in $(seq 100); do [ -s "$T/c/stats.json" ] && break; sleep 0.1; done
sleep 0.5
kill -TERM $pid; sleep 0.2; kill -TERM $pid
wait $pid
check "second signal: exit code 130" [ $? = 130 ]
check "second signal: exits at once, saying so" grep -q "interrupted twice" "$T/c.err"
check "second signal: stats.json still valid" jq -e .counters "$T/c/stats.json" >/dev/null
finish

#!/usr/bin/env bash
# t0120-jobs: `run --jobs N`.  Two workers on cgi_decode with 3000
# executions in all give one suite (each test once, the work directory
# gone) whose gcov replay covers at least what one job covers with the same
# 3000; stats.json holds the whole run and each worker's counters.  On
# two_sites.c both workers find both crash sites: crashes/ holds each once.
# A worker killed mid-run leaves a valid output: the run ends with exit
# code 0, says so, and merges what the dead worker wrote.  Bad --jobs values
# and --resume with --jobs are one-line errors.  With auto, the concolic
# member runs in worker 0 only unless --auto-arms is given.  With a CPU
# each, the workers are pinned to different CPUs.
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

gcov_branches() { sed -n 's/.*gcov replay *branches \([0-9]*\)\/.*/\1/p' "$1"; }
"$CTESTGEN" run "$EX/cgi_decode.c" --max-execs 3000 -o "$T/one" > "$T/one.out" 2>&1
"$CTESTGEN" run "$EX/cgi_decode.c" --jobs 2 --max-execs 3000 -o "$T/two" > "$T/two.out" 2>&1
check "--jobs 2: exit 0" [ $? = 0 ]
one=$(gcov_branches "$T/one.out"); two=$(gcov_branches "$T/two.out")
check "--jobs 2: gcov replay covers $two, one job $one" [ "${two:-0}" -ge "${one:-999}" ]
check "--jobs 2: the summary says so" grep -q "jobs  *2 processes" "$T/two.out"
check "--jobs 2: the workers' directory is gone" [ ! -e "$T/two/.jobs" ]
check "--jobs 2: the suite has its metadata" [ -f "$T/two/test-suite/metadata.xml" ]
ntests=$(ls "$T/two/test-suite" | grep -c '^test-.*\.xml$')
check "--jobs 2: tests in the suite = tests counted ($ntests)" [ "$ntests" = "$(stat tests "$T/two")" ]
check "--jobs 2: every test once" [ -z "$(md5sum "$T"/two/corpus/id-* | awk '{print $1}' | sort | uniq -d)" ]
w0=$(stat jobs.w0.execs "$T/two"); w1=$(stat jobs.w1.execs "$T/two")
check "--jobs 2: both workers ran ($w0 + $w1)" [ "$w0" -gt 0 -a "$w1" -gt 0 ]
check "--jobs 2: execs is their sum" [ "$(stat execs "$T/two")" = $((w0 + w1)) ]
check "--jobs 2: at most the budget" [ $((w0 + w1)) -le 3000 ]

# a portfolio in space: auto's concolic member runs in worker 0 only (its
# finds reach worker 1 through the exchange), unless --auto-arms is given
"$CTESTGEN" run "$PROGS/deadbeef.c" --jobs 2 --max-execs 4000 --keep-going -o "$T/space" -q --no-replay-check
check "auto, --jobs 2: worker 0 runs the concolic member" [ "$(stat jobs.w0.auto.execs.concolic "$T/space")" -gt 0 ]
check "auto, --jobs 2: worker 1 runs the others only" \
  [ "$(stat jobs.w1.auto.execs.concolic "$T/space")" = 0 -a "$(stat jobs.w1.auto.execs.fuzz "$T/space")" -gt 0 ]
check "auto, --jobs 2: the error only concolic execution finds is reached" [ "$(stat errors.reached "$T/space")" = 1 ]
"$CTESTGEN" run "$PROGS/deadbeef.c" --jobs 2 --max-execs 4000 --keep-going --auto-arms fuzz,mio,concolic \
  -o "$T/space2" -q --no-replay-check
check "--auto-arms given: every worker runs what it names" [ "$(stat jobs.w1.auto.execs.concolic "$T/space2")" -gt 0 ]

"$CTESTGEN" run "$PROGS/two_sites.c" --jobs 2 --strategy random --max-execs 6000 --keep-going \
  -o "$T/crash" -q --no-replay-check
n=$(find "$T/crash/crashes" -type f ! -name '*.txt' | wc -l)
check "two crash sites, both workers: crashes/ holds 2 ($n)" [ "$n" = 2 ]
found=$(( $(stat jobs.w0.crashes "$T/crash") + $(stat jobs.w1.crashes "$T/crash") ))
check "the workers recorded $found between them (more than the 2 kept)" [ "$found" -gt 2 ]

# kill worker 1 once it has kept something; worker 0 runs its share out
"$CTESTGEN" run "$CTG_SOURCE_DIR/bench/fuzz-programs/json.c" --jobs 2 --strategy fuzz \
  --max-execs 600000 -o "$T/kill" > "$T/kill.out" 2>&1 &
run=$!
for _ in $(seq 1 400); do
  [ -s "$T/kill/.jobs/pids" ] && [ -n "$(ls "$T/kill/.jobs/w1/corpus" 2>/dev/null)" ] && break
  sleep 0.05
done
victim=$(awk '$1 == 1 { print $2 }' "$T/kill/.jobs/pids" 2>/dev/null)
check "a worker's pid is in .jobs/pids" [ -n "$victim" ]
# with a CPU each, each worker (and the program it forks) is pinned to its own
w0=$(awk '$1 == 0 { print $2 }' "$T/kill/.jobs/pids" 2>/dev/null)
if [ "$(nproc)" -ge 2 ] && [ -n "$w0" ] && [ -n "$victim" ]; then
  c0=$(awk '/^Cpus_allowed_list/ {print $2}' "/proc/$w0/status" 2>/dev/null)
  c1=$(awk '/^Cpus_allowed_list/ {print $2}' "/proc/$victim/status" 2>/dev/null)
  check "--jobs 2: worker 0 on one CPU ($c0)" bash -c "[[ '$c0' =~ ^[0-9]+$ ]]"
  check "--jobs 2: worker 1 on another one ($c1)" bash -c "[[ '$c1' =~ ^[0-9]+$ ]] && [ '$c1' != '$c0' ]"
else
  echo "skip (pinning part): fewer than 2 CPUs"
fi
[ -n "$victim" ] && kill -9 "$victim"
wait $run
check "one worker killed: exit 0" [ $? = 0 ]
check "one worker killed: it is reported" grep -q "job 1 ended by signal 9" "$T/kill.out"
check "one worker killed: a suite" [ "$(stat tests "$T/kill")" -gt 0 ]
check "one worker killed: its stats were merged" [ "$(stat jobs.w1.ok "$T/kill")" = 1 ]

"$CTESTGEN" run "$EX/cgi_decode.c" --jobs 0 -o "$T/bad" 2> "$T/bad.err"
check "--jobs 0: exit 2" [ $? = 2 ]
check "--jobs 0: one line" [ "$(wc -l < "$T/bad.err")" = 1 ]
"$CTESTGEN" run "$EX/cgi_decode.c" --jobs 2 --resume -o "$T/two" 2> "$T/res.err"
check "--jobs with --resume: refused" grep -q "resume: not with --jobs" "$T/res.err"
finish

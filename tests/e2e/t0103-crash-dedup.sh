#!/usr/bin/env bash
# t0103-crash-dedup: crashes/ holds one file per crash site, minimised.
# programs/two_sites.c has two null-pointer writes, each reached by many
# inputs with varying coverage (the former dedupe by coverage wrote 4 files
# for seed 1).  After 3000 random executions crashes/ must hold exactly two
# crashes, at two different sites, each of at most 5 bytes (n = 1 and one
# int), each still crashing when reproduced.  Without minimisation
# (--crash-min-execs 0) there are still two files, and they are larger: the
# sizes come from the minimisation, not from luck.  On a program with 500
# abort sites, minimisation keeps to its share of the runs.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

# run_two NAME [options]: ctestgen on two_sites.c, random, seed 1, 3000 runs.
run_two() {
  local name=$1; shift
  if ! "$CTESTGEN" run "$PROGS/two_sites.c" --strategy random --seed 1 --max-execs 3000 \
       --keep-going -o "$T/$name" -q "$@" 2>"$T/$name.err"; then
    fail "$name: ctestgen exited non-zero: $(cat "$T/$name.err")"; return 1
  fi
}
# raw crash files of DIR (not the .txt descriptions)
raws() { find "$1/crashes" -type f ! -name '*.txt' | sort; }
count() { raws "$1" | wc -l; }
sites() { grep -ho 'at site 0x[0-9a-f]*' "$1"/crashes/*.txt | sort -u | wc -l; }
# the sum of every runs.* counter (normal, crash, timeout, ...) of DIR
runs_total() { jq '[.counters | to_entries[] | select(.key | startswith("runs.")) | .value] | add' "$1/stats.json"; }
largest() { local m=0 s; for f in $(raws "$1"); do s=$(wc -c <"$f"); [ "$s" -gt "$m" ] && m=$s; done; echo "$m"; }
# every crash reproduces with its command and dies of SIGSEGV (sh: 128 + 11)
reproduces() {
  local f rc
  for f in "$1"/crashes/*.txt; do
    rc=0; sh -c "$(tail -n 1 "$f")" 2>/dev/null || rc=$?
    [ "$rc" = 139 ] || { echo "$f: exit $rc" >&2; return 1; }
  done
}

check_minimised() {
  local name=$1
  check "$name: exactly two crash files" [ "$(count "$T/$name")" = 2 ]
  check "$name: at two different sites" [ "$(sites "$T/$name")" = 2 ]
  check "$name: every crash file is minimised (<= 5 bytes)" [ "$(largest "$T/$name")" -le 5 ]
  check "$name: every crash file is non-empty" [ "$(largest "$T/$name")" -ge 1 ]
  check "$name: minimised crashes still crash" reproduces "$T/$name"
  check "$name: minimisation stays within --max-execs" [ "$(stat execs "$T/$name")" = 3000 ]
  # every kind counts: on a loaded host a run may time out (runs.timeout)
  check "$name: every run is counted once" [ "$(runs_total "$T/$name")" = 3000 ]
}

run_two min && check_minimised min
run_two nomin --crash-min-execs 0 && {
  check "nomin: still exactly two crash files" [ "$(count "$T/nomin")" = 2 ]
  check "nomin: unminimised files are larger" [ "$(largest "$T/nomin")" -gt 5 ]
}
# auto runs concolic (prog.sym) beside the fuzzers: a crash found through
# both binaries is still one file (prog.sym's crashes are re-run on prog.cov)
run_two auto --strategy auto && {
  check "auto (prog.sym + prog.cov): exactly two crash files" [ "$(count "$T/auto")" = 2 ]
  check "auto: both crashes reproduce" reproduces "$T/auto"
}
# an xcsp-style task: assume() aborts at some 500 call sites, 500 crash
# signatures; minimising each (256 runs) took 2,919 of 3,000 runs and left
# concolic 40; beyond one crash's worth, minimisation gets a fifth of them
"$CTESTGEN" run "$PROGS/abort_sites.c" --strategy concolic --seed 1 --max-execs 3000 --keep-going \
    -o "$T/sites" -q --no-replay-check
n=$(stat crashes "$T/sites"); m=$(stat crashes.min_execs "$T/sites"); e=$(stat execs "$T/sites")
check "abort_sites: a crash per call site reached ($n)" [ "$n" -ge 100 ]
check "abort_sites: minimisation within its share ($m of $e runs)" [ "$m" -le $((257 + e / 5)) ]
check "abort_sites: the search got the rest ($(stat concolic.runs "$T/sites") runs)" \
  [ "$(stat concolic.runs "$T/sites")" -ge 500 ]
if [ -f "${CTG_BUILD_DIR:-}/rt/libctg_rt32.a" ] && exec32; then
  run_two m32 --arch 32 && check_minimised m32
fi
finish

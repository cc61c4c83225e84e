#!/usr/bin/env bash
# t0121-mpi: `mpirun -np 3 ctestgen run ... --mpi`.  Three ranks on
# cgi_decode with 3000 executions in all give one suite in OUT (rank 0's),
# whose gcov replay covers at least what one job covers with the same
# budget, with every rank's counters in stats.json.  `learn --mpi` hands
# evaluations to the other ranks.  With mpirun
# --enable-recovery, a rank killed mid-run does not stop the others: rank
# 0 reports it, merges what it had sent, and the output is valid.  Skips
# when mpirun is missing or ctestgen was built without MPI.
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"
command -v mpirun >/dev/null || { echo "skip: mpirun not installed (openmpi-bin)"; exit 77; }
"$CTESTGEN" doctor | grep -q '^mpi *yes' || { echo "skip: ctestgen built without MPI"; exit 77; }
mkdir -p "$T/tmp"; export TMPDIR="$T/tmp" # the ranks' own directories
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpirun --version >/dev/null 2>&1 || { echo "skip: mpirun does not start"; exit 77; }

gcov_branches() { sed -n 's/.*gcov replay *branches \([0-9]*\)\/.*/\1/p' "$1"; }
"$CTESTGEN" build "$EX/cgi_decode.c" -s concolic >/dev/null # the ranks share the cache entry
"$CTESTGEN" run "$EX/cgi_decode.c" --max-execs 3000 -o "$T/one" > "$T/one.out" 2>&1
timeout 300 mpirun -np 3 "$CTESTGEN" run "$EX/cgi_decode.c" --mpi --max-execs 3000 -o "$T/m" > "$T/m.out" 2>&1
check "mpirun -np 3: exit 0" [ $? = 0 ]
one=$(gcov_branches "$T/one.out"); m=$(gcov_branches "$T/m.out")
check "mpi: gcov replay covers $m, one job $one" [ "${m:-0}" -ge "${one:-999}" ]
check "mpi: one summary, from rank 0" [ "$(grep -c 'gcov replay' "$T/m.out")" = 1 ]
check "mpi: stats.json counts 3 jobs" [ "$(stat jobs "$T/m")" = 3 ]
w=0; for k in 0 1 2; do w=$((w + $(stat jobs.w$k.execs "$T/m"))); done
check "mpi: every rank ran, execs is their sum ($w)" \
  [ "$(stat execs "$T/m")" = "$w" -a "$(stat jobs.w2.execs "$T/m")" -gt 0 ]
check "mpi: the sync directory is gone" [ ! -e "$T/m/.jobs" ]
check "mpi: the other ranks' directories are gone" sh -c "! ls -d '$T/tmp'/ctg-mpi-r* 2>/dev/null | grep -q ."

# learn --mpi: the other ranks run evaluations
timeout 300 mpirun -np 3 "$CTESTGEN" learn "$CTG_SOURCE_DIR/bench/concolic-programs/calc.c" --mpi -j 1 \
  --samples 6 --top 2 --checks 2 --rounds 2 --max-execs 150 -o "$T/w.txt" > "$T/l.out" 2>&1
check "learn --mpi: exit 0" [ $? = 0 ]
check "learn --mpi: a weights file" grep -q '^in_main ' "$T/w.txt"
r=$(sed -n 's/.*(\([0-9]*\) evaluations on ranks.*/\1/p' "$T/l.out")
check "learn --mpi: ranks 1..2 ran evaluations (${r:-none})" [ "${r:-0}" -gt 0 ]

# a rank killed mid-run
timeout 300 mpirun --enable-recovery -np 3 "$CTESTGEN" run "$CTG_SOURCE_DIR/bench/fuzz-programs/json.c" --mpi \
  --strategy fuzz --max-execs 3000000 --sync-s 0.2 -o "$T/k" > "$T/k.out" 2>&1 &
run=$!
victim=
for _ in $(seq 1 400); do
  for p in $(pgrep -f "ctestgen run .*$T/k"); do
    tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=2' && victim=$p
  done
  [ -n "$victim" ] && [ -n "$(ls "$T/k/.jobs/w2/corpus" 2>/dev/null)" ] && break
  sleep 0.05
done
check "rank 2 found, and rank 0 holds tests it sent" [ -n "$victim" ]
[ -n "$victim" ] && kill -9 "$victim"
wait $run
check "a rank killed: exit 0" [ $? = 0 ]
check "a rank killed: rank 0 says so" grep -q "rank 2 went silent" "$T/k.out"
check "a rank killed: a suite" [ "$(stat tests "$T/k")" -gt 0 ]
check "a rank killed: the others' counters are merged" [ "$(stat jobs.w1.ok "$T/k")" = 1 ]
finish

#!/usr/bin/env bash
# t0701-learn: `ctestgen learn` (seed 004's algorithm 2) with a tiny budget
# runs to completion and writes a readable weights file that `--search param
# --weights` uses; an interrupted learn continues from its log without
# running finished evaluations again; cfds, cgs and param run end to end;
# param with feature 41 (cfds_rank) alone runs as cfds;
# `ctestgen compare` groups runs by search order.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$CTG_SOURCE_DIR/bench/concolic-programs/calc.c"
L=(--max-execs 60 --samples 4 --top 2 --checks 2 --rounds 2)

"$CTESTGEN" learn "$P" "${L[@]}" -j 2 -o "$T/w.txt" >"$T/learn.out" 2>&1 || fail "learn: $(cat "$T/learn.out")"
check "learn: 41 weights, one a line" [ "$(grep -cE '^[a-z0-9_]+ +[-+][0-9.]+$' "$T/w.txt")" = 41 ]
check "learn: says what it learned on" grep -q "^# learned by ctestgen learn on .*calc.c" "$T/w.txt"
check "learn: the log records every evaluation" [ "$(grep -c '^eval ' "$T/w.txt.work/learn.log")" -ge 8 ]
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/w.txt" --max-execs 200 -q -o "$T/p" \
  || fail "run with the learned weights failed"
check "param run: records its weights" [ "$(jq -r .info.weights "$T/p/stats.json")" = "$T/w.txt" ]
check "param run: covers branches" [ "$(stat edges.covered "$T/p")" -gt 10 ]
# the scope the weights were learned with is part of the file (learned
# with them by default: one of last, tree, gen, level, mix), and what a run
# uses unless --search-scope says otherwise
sc=$(sed -n 's/^scope \([a-z]*\)$/\1/p' "$T/w.txt")
check "learn: records its scope (learned: $sc)" \
  bash -c "case '$sc' in last | tree | gen | level | mix) true ;; *) false ;; esac"
check "param run: the scope of its weights file" [ "$(jq -r .info.scope "$T/p/stats.json")" = "$sc" ]
check "learn: the log's rounds name the best vector's scope" grep -q "^round 1 best .* scope $sc\$" "$T/w.txt.work/learn.log"
sed 's/^scope [a-z]*$/scope tree/' "$T/w.txt" >"$T/wt.txt"
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/wt.txt" --max-execs 50 -q -o "$T/pt" \
  || fail "run with tree weights failed"
check "param run: a 'scope tree' file searches the tree" [ "$(jq -r .info.scope "$T/pt/stats.json")" = tree ]
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/wt.txt" --search-scope last \
  --max-execs 50 -q -o "$T/pl" || fail "run with tree weights, scope last failed"
check "param run: --search-scope overrides the file's" [ "$(jq -r .info.scope "$T/pl/stats.json")" = last ]
sed 's/^scope [a-z]*$/scope gen/' "$T/w.txt" >"$T/wg.txt"
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/wg.txt" --max-execs 50 -q -o "$T/pg" \
  || fail "run with gen weights failed"
check "param run: a 'scope gen' file searches generationally" [ "$(jq -r .info.scope "$T/pg/stats.json")" = gen ]
check "param run, scope gen: expands tests as generational search does" \
  [ "$(stat concolic.expanded "$T/pg")" -gt 1 ]
sed 's/^scope [a-z]*$/scope level/' "$T/w.txt" >"$T/wv.txt"
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/wv.txt" --max-execs 50 -q -o "$T/pv" \
  || fail "run with level weights failed"
check "param run: a 'scope level' file searches the tree in level order" [ "$(jq -r .info.scope "$T/pv/stats.json")" = level ]
"$CTESTGEN" run "$P" --strategy concolic --search cfds --search-scope gen --max-execs 5 -q -o "$T/cg" 2>"$T/cg.err"
check "cfds with scope gen: refused" [ $? != 0 ]
check "cfds with scope gen: one line naming the option" \
  [ "$(wc -l <"$T/cg.err")" = 1 -a -n "$(grep -- '--search-scope gen' "$T/cg.err")" ]

# the restart after a stall is learned with the weights by default: drawn
# from 0, 5, 10 and 30, written to the weights file, used by a run with it
check "learn: the scope and the restart are learned, as the log's setup says" \
  grep -q "^setup scope learned, restart learned," "$T/w.txt.work/learn.log"
rs=$(sed -n 's/^restart \([0-9]*\)$/\1/p' "$T/w.txt")
check "learn: the weights file says its restart (one of 0, 5, 10, 30)" \
  bash -c "case '$rs' in 0 | 5 | 10 | 30) true ;; *) false ;; esac"
check "learn: the log's rounds name the best vector's restart" grep -q "^round 1 best .* restart [0-9]" "$T/w.txt.work/learn.log"
check "param run: restarts as its weights file says" [ "$(jq -r .info.restart "$T/p/stats.json")" = "$rs" ]
sed '/^restart /d; $a restart 0' "$T/w.txt" >"$T/w0.txt"
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/w0.txt" --max-execs 50 -q -o "$T/p0" \
  || fail "run with a restart 0 file failed"
check "param run: a 'restart 0' file never restarts" [ "$(jq -r .info.restart "$T/p0/stats.json")" = 0 ]
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/w0.txt" --search-restart 5 --max-execs 50 \
  -q -o "$T/p5" || fail "run with --search-restart 5 failed"
check "param run: --search-restart overrides the file's" [ "$(jq -r .info.restart "$T/p5/stats.json")" = 5 ]
"$CTESTGEN" run "$P" --strategy concolic --search param --weights cfds-mix --max-execs 20 -q -o "$T/pd" ||
  fail "param run failed"
check "param run, built-in cfds-mix: scope mix hands over after 5" [ "$(jq -r .info.restart "$T/pd/stats.json")" = 5 ]
"$CTESTGEN" run "$P" --strategy concolic --search param --weights cfds-mix --search-scope last --max-execs 20 -q \
  -o "$T/pdl" || fail "param --search-scope last run failed"
check "param run, built-in cfds-mix, scope last: restarts after 10" [ "$(jq -r .info.restart "$T/pdl/stats.json")" = 10 ]
"$CTESTGEN" learn "$P" --max-execs 40 --samples 3 --top 1 --checks 1 --rounds 1 --search-restart 20 -o "$T/w20.txt" -q \
  >/dev/null 2>&1 || fail "learn --search-restart 20 failed"
check "learn --search-restart N: every run restarts after N, and the file says so" \
  bash -c "grep -q '^setup scope learned, restart 20,' '$T/w20.txt.work/learn.log' && grep -qx 'restart 20' '$T/w20.txt'"
# --learn-as-seed: the seed's 10 check trials for each of the top samples
"$CTESTGEN" learn "$P" --max-execs 40 --samples 2 --top 1 --rounds 1 --learn-as-seed -o "$T/ws.txt" -q \
  >/dev/null 2>&1 || fail "learn --learn-as-seed failed"
trials() { awk '$1 == "eval" && $2 == 1 && $3 == "C" { n[$4]++ }
  END { for (k in n) { c++; if (n[k] != 10) bad = 1 } print (c && !bad) ? "10 each" : "not 10" }' "$1"; }
check "learn --learn-as-seed: each vector checked is checked over 10 trials" \
  [ "$(trials "$T/ws.txt.work/learn.log")" = "10 each" ]
"$CTESTGEN" learn "$P" --max-execs 40 --samples 3 --top 1 --checks 1 --rounds 1 --search-scope level -o "$T/wl.txt" -q \
  >/dev/null 2>&1 || fail "learn --search-scope level failed"
check "learn --search-scope S: every run looks at S, and the file says so" \
  bash -c "grep -q '^setup scope level, restart learned,' '$T/wl.txt.work/learn.log' && grep -qx 'scope level' '$T/wl.txt'"
# scope gen never restarts: a learn for it draws no restart (every round's
# best, and the file, say restart 0; a drawn 10 or 30 would do nothing)
"$CTESTGEN" learn "$P" --max-execs 40 --samples 4 --top 2 --checks 1 --rounds 2 --search-scope gen -o "$T/wgen.txt" -q \
  >/dev/null 2>&1 || fail "learn --search-scope gen failed"
check "learn --search-scope gen: every round's best says restart 0" \
  bash -c "[ \$(grep -c '^round ' '$T/wgen.txt.work/learn.log') -ge 1 ] && ! grep '^round ' '$T/wgen.txt.work/learn.log' | grep -qv ' restart 0 scope gen\$'"
check "learn --search-scope gen: the file says restart 0" grep -qx 'restart 0' "$T/wgen.txt"

# the same command again: every evaluation comes from the log
n=$(grep -c '^eval ' "$T/w.txt.work/learn.log")
"$CTESTGEN" learn "$P" "${L[@]}" -o "$T/w.txt" -q || fail "learn again"
check "learn again: no evaluation run twice" [ "$(grep -c '^eval ' "$T/w.txt.work/learn.log")" = "$n" ]
# the log's evaluations were made with the scope learned: a learn for tree does not reuse them
"$CTESTGEN" learn "$P" "${L[@]}" --search-scope tree -o "$T/w.txt" -q 2>"$T/other.err" >/dev/null
check "learn with other settings on the same log: refused" [ $? = 1 ]
check "learn with other settings: one line naming the log" \
  bash -c "[ \$(wc -l <'$T/other.err') = 1 ] && grep -q 'learn.log: written by a learn with other settings' '$T/other.err'"
check "learn with other settings: the log is unchanged" [ "$(grep -c '^eval ' "$T/w.txt.work/learn.log")" = "$n" ]
"$CTESTGEN" learn "$P" "${L[@]}" --search-restart 0 -o "$T/w.txt" -q 2>"$T/other0.err" >/dev/null
check "learn without restarts on a log with them: refused" grep -q 'written by a learn with other settings' "$T/other0.err"

# interrupted after the first evaluations, then continued
"$CTESTGEN" learn "$P" --max-execs 150 --samples 8 --top 2 --checks 2 --rounds 2 -j 1 -o "$T/i.txt" \
  >"$T/i.out" 2>"$T/i.err" &
pid=$!
for _ in $(seq 300); do
  [ -s "$T/i.txt.work/learn.log" ] && [ "$(grep -c '^eval ' "$T/i.txt.work/learn.log")" -ge 2 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 130 ]; then
  ok "interrupted learn: exit code 130"
  check "interrupted learn: says how to continue" grep -q "run the same command again" "$T/i.err"
  before=$(grep -c '^eval ' "$T/i.txt.work/learn.log")
  "$CTESTGEN" learn "$P" --max-execs 150 --samples 8 --top 2 --checks 2 --rounds 2 -j 1 -o "$T/i.txt" -q \
    || fail "continued learn failed"
  check "continued learn: weights written" [ -s "$T/i.txt" ]
  dups=$(grep '^eval ' "$T/i.txt.work/learn.log" | awk '{print $2, $3, $4, $5}' | sort | uniq -d | wc -l)
  check "continued learn: no evaluation ran twice ($before logged before)" [ "$dups" = 0 ]
else
  echo "learn finished (rc $rc) before the interrupt: the resume part is not exercised"
  check "learn finished cleanly" [ $rc = 0 ]
fi

# warm start: with one sample a round, what it learns is the start vector
printf 'in_main 0.5\nloop_exit -0.25\n' >"$T/start.txt"
"$CTESTGEN" learn "$P" --max-execs 40 --samples 1 --top 1 --checks 1 --rounds 1 --weights "$T/start.txt" \
  -q -o "$T/ws.txt" || fail "learn from a start vector"
check "warm start: the start vector is evaluated first" \
  [ "$(grep -E '^(in_main|loop_exit|nested) ' "$T/ws.txt" | awk '{printf "%s=%g ", $1, $2}')" = "in_main=0.5 loop_exit=-0.25 nested=0 " ]
"$CTESTGEN" learn "$P" --max-execs 40 --samples 1 --top 1 --checks 1 --rounds 1 --weights none \
  -q -o "$T/wn.txt" || fail "learn without a start vector"
check "--weights none: a drawn vector (no weight is 0)" [ "$(grep -cE '^[a-z0-9_]+ +[-+]0$' "$T/wn.txt")" = 0 ]
"$CTESTGEN" learn "$P" --max-execs 40 --samples 1 --rounds 1 --weights "$T/nosuch" -q -o "$T/wx.txt" 2>"$T/err"
check "learn with a missing start vector: one-line error" grep -q "nosuch" "$T/err"

# --features paper: the paper's 40 features; cfds_rank stays 0 in every
# vector, the log and the file say so, and the file says how to reproduce it
"$CTESTGEN" learn "$P" --max-execs 40 --samples 3 --top 1 --checks 1 --rounds 2 --weights none --features paper \
  -q -o "$T/wp.txt" || fail "learn --features paper failed"
check "learn --features paper: cfds_rank 0 in the file" grep -qE '^cfds_rank +[-+]0\.0000$' "$T/wp.txt"
check "learn --features paper: the log's setup says 40 features" grep -q '^setup .*, 40 features,' "$T/wp.txt.work/learn.log"
check "learn: the file's provenance has the time and the command" \
  bash -c "grep -q '^# features: the paper.s 40 (cfds_rank held at 0); [0-9]* s of this command' '$T/wp.txt' && grep -q '^# reproduce: ctestgen learn .*calc.c .*--features paper .*--weights none' '$T/wp.txt'"
"$CTESTGEN" run "$P" --strategy concolic --search param --weights "$T/wp.txt" --max-execs 30 -q -o "$T/pp" ||
  fail "run with paper weights failed"
"$CTESTGEN" learn "$P" --max-execs 40 --features most -q -o "$T/wf.txt" 2>"$T/errf"
check "learn --features most: exit 2" [ $? = 2 ]
check "learn --features most: one line naming the option" bash -c "[ \$(wc -l <'$T/errf') = 1 ] && grep -q -- '--features' '$T/errf'"

# --each: two programs, every vector evaluated on both, scored in percent
F="$CTG_SOURCE_DIR/bench/fuzz-programs/fsm.c"
"$CTESTGEN" learn --each "$P" "$F" --max-execs 60 --samples 2 --top 1 --checks 1 --rounds 1 -j 2 \
  -o "$T/each.txt" >"$T/each.out" 2>&1 || fail "learn --each: $(tail -1 "$T/each.out")"
check "learn --each: names both programs" grep -q "^# learned by ctestgen learn on calc.c fsm.c: .*% of branches" "$T/each.txt"
# find: 2 vectors x 2 programs; check: both (the top one, and round 1 checks its given vectors) x 2 programs
check "learn --each: every evaluation once per program" \
  [ "$(grep -c '^eval 1 F ' "$T/each.txt.work/learn.log") $(grep -c '^eval 1 C ' "$T/each.txt.work/learn.log")" = "4 4" ]
check "learn --each: both programs in the log" \
  [ "$(awk '/^eval /{print $7}' "$T/each.txt.work/learn.log" | sort -u | tr '\n' ' ')" = "0 1 " ]
# percentages, not edge counts: within 0..100, and not all whole numbers
check "learn --each: values are percentages" \
  awk '/^eval /{if ($6 < 0 || $6 > 100) exit 1; if ($6 != int($6)) f = 1} END {exit !f}' "$T/each.txt.work/learn.log"

# param here with the built-in cfds-mix vector (the auto portfolio's)
for o in cfds cgs param; do
  w=(); [ $o = param ] && w=(--weights cfds-mix)
  "$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search $o "${w[@]}" --max-execs 300 --seed 1 -q \
    -o "$T/$o" || fail "$o: run failed"
  check "$o: reaches cgi_decode's error" [ "$(stat errors.reached "$T/$o")" = 1 ]
  check "$o: recorded as the search order" [ "$(jq -r .info.search "$T/$o/stats.json")" = $o ]
done
# param with weights file W (run into $T/NAME) runs as the order in $T/REF:
# the same corpus, file for file, and as many runs
same_runs() { # LABEL W NAME REF
  "$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --weights "$2" --max-execs 300 \
    --seed 1 -q -o "$T/$3" || fail "$1: run failed"
  check "$1: the corpus of $4" \
    bash -c "[ \"\$(cd '$T/$3/corpus' && md5sum * | md5sum)\" = \"\$(cd '$T/$4/corpus' && md5sum * | md5sum)\" ]"
  check "$1: as many runs as $4" [ "$(stat execs "$T/$3")" = "$(stat execs "$T/$4")" ]
}
# feature 41 alone, with CFDS's restart: the runs of --search cfds
printf 'cfds_rank 1\nrestart 30\nscope last\n' >"$T/rank.txt"
same_runs "param with cfds_rank alone" "$T/rank.txt" rank cfds
# every weight 0 with scope gen (learn's seventh start vector): the runs of
# --search generational (ties in path order, as generational takes them)
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search generational --max-execs 300 --seed 1 -q \
  -o "$T/generational" || fail "generational: run failed"
printf 'scope gen\nrestart 0\n' >"$T/zero.txt"
same_runs "param, all weights 0, scope gen" "$T/zero.txt" zero generational
"$CTESTGEN" compare "$T/cfds" "$T/cgs" "$T/param" --by search >"$T/cmp" || fail "compare failed"
check "compare: one line per search order" [ "$(grep -cE '^(cfds|cgs|param) +1 ' "$T/cmp")" = 3 ]
check "compare: pairwise A12" grep -q "^cfds  *cgs " "$T/cmp"
check "compare: every counter pair by pair, with U, p, A12 and its label" \
  grep -qE "^  execs +[0-9.e+]+ +[0-9.e+]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  (negligible|small|medium|large)$" "$T/cmp"
check "param: the weights in use in info.weights_values (cfds_rank=1)" \
  bash -c "jq -r .info.weights_values '$T/param/stats.json' | grep -q 'cfds_rank=1'"
check "every strategy option in info (opt.mcts-policy, opt.search)" \
  bash -c "[ \"\$(jq -r '.info[\"opt.mcts-policy\"]' '$T/param/stats.json')\" = sized ] && [ \"\$(jq -r '.info[\"opt.search\"]' '$T/param/stats.json')\" = param ]"
"$CTESTGEN" compare "$T/cfds" "$T/cgs" "$T/param" --by opt.search >"$T/cmp2" || fail "compare --by opt.search failed"
check "compare --by opt.search groups as --by search" [ "$(grep -cE '^(cfds|cgs|param) +1 ' "$T/cmp2")" = 3 ]
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --weights "$T/nosuch" -o "$T/x" 2>"$T/err" >/dev/null
check "param with a missing weights file: one line naming it and the built-in vectors" \
  bash -c "[ \$(wc -l <'$T/err') = 1 ] && grep -q 'nosuch.*learned, cfds-mix' '$T/err'"
# --search param without --weights: the built-in learned vector, over the
# paper's 40 features (cfds_rank 0), with the scope it was learned with
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --max-execs 100 --seed 1 -q -o "$T/pdef" ||
  fail "param, default weights: run failed"
check "param: the learned vector by default" [ "$(jq -r .info.weights "$T/pdef/stats.json")" = learned ]
check "param: the learned vector weighs cfds_rank 0" \
  bash -c "jq -r .info.weights_values '$T/pdef/stats.json' | grep -q 'cfds_rank=0\$'"
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --weights cfds-mix --search-scope tree \
  --max-execs 300 --seed 1 -q -o "$T/tree" || fail "param --search-scope tree: run failed"
check "param, scope tree: reaches cgi_decode's error" [ "$(stat errors.reached "$T/tree")" = 1 ]
check "param, scope tree: recorded" [ "$(jq -r .info.scope "$T/tree/stats.json")" = tree ]
# scope mix: generational search and last-path dives in one run, handing
# over after a stall
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --search-scope mix --max-execs 300 \
  --seed 1 -q -o "$T/mix" || fail "param --search-scope mix: run failed"
check "param, scope mix: reaches cgi_decode's error" [ "$(stat errors.reached "$T/mix")" = 1 ]
check "param, scope mix: recorded" [ "$(jq -r .info.scope "$T/mix/stats.json")" = mix ]
check "param, scope mix: hands over and the last-path arm runs" \
  bash -c "[ $(stat concolic.mix_handovers "$T/mix") -ge 1 ] && [ $(stat concolic.mix_last_runs "$T/mix") -ge 1 ]"
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search cfds --search-scope mix -o "$T/cm" 2>"$T/err4" >/dev/null
check "cfds with scope mix: one-line error" bash -c "[ \$(wc -l <'$T/err4') = 1 ] && grep -q 'only --search param' '$T/err4'"
check "param --weights cfds-mix: scope mix" [ "$(jq -r .info.scope "$T/param/stats.json")" = mix ]
# the shipped weights are feature 41 alone with scope mix, handing over
# after 5 fruitless runs: the same runs
printf 'cfds_rank 1\nscope mix\nrestart 5\n' >"$T/shipped.txt"
same_runs "param with cfds_rank alone, scope mix" "$T/shipped.txt" shipped param
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --search param --search-scope all -o "$T/y" 2>"$T/err2" >/dev/null
check "an unknown scope: one-line error" bash -c "[ \$(wc -l <'$T/err2') = 1 ] && grep -q 'search-scope' '$T/err2'"
# auto's concolic member: param with the shipped weights unless --search
# says otherwise (issue 10 part 6); --strategy concolic stays generational
"$CTESTGEN" run "$EX/cgi_decode.c" --max-execs 3000 --seed 1 -q -o "$T/auto" || fail "auto: run failed"
"$CTESTGEN" run "$EX/cgi_decode.c" --max-execs 3000 --seed 1 -q --search generational -o "$T/autog" ||
  fail "auto --search generational: run failed"
check "auto: its concolic member runs param, cfds-mix, scope mix" \
  bash -c "[ \"\$(jq -r '.info.search + \" \" + .info.weights + \" \" + .info.scope' '$T/auto/stats.json')\" = 'param cfds-mix mix' ]"
check "auto: the param member ran" [ "$(stat auto.execs.concolic "$T/auto")" -ge 1 ]
check "auto --search generational: as given" [ "$(jq -r .info.search "$T/autog/stats.json")" = generational ]
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy concolic --max-execs 50 --seed 1 -q -o "$T/cdef" ||
  fail "concolic, default search: run failed"
check "concolic: generational search by default" [ "$(jq -r .info.search "$T/cdef/stats.json")" = generational ]

# restarts after a stall (scope last: the paper's): on two_mains the random
# seed dives into main1's endless loop; only a restart from the oldest path
# (the all-zero seed's, in main2) reaches main2's error
TM="$CTG_SOURCE_DIR/tests/e2e/programs/two_mains.c"
for r in 0 auto; do
  "$CTESTGEN" run "$TM" --strategy concolic --search param --search-scope last --search-restart $r \
    --max-execs 200 --seed 1 -q \
    -o "$T/tm-$r" || fail "two_mains, --search-restart $r: run failed"
done
check "param without restarts: stays in main1" [ "$(stat errors.reached "$T/tm-0")" = 0 ]
check "param without restarts: none counted" [ "$(stat concolic.stall_restarts "$T/tm-0")" = 0 ]
check "param, restarts by default: main2's error reached" [ "$(stat errors.reached "$T/tm-auto")" = 1 ]
check "param, restarts by default: counted" [ "$(stat concolic.stall_restarts "$T/tm-auto")" -ge 1 ]
"$CTESTGEN" run "$TM" --strategy concolic --search param --search-restart soon -o "$T/z" 2>"$T/err3" >/dev/null
check "a bad --search-restart: one-line error" bash -c "[ \$(wc -l <'$T/err3') = 1 ] && grep -q 'search-restart' '$T/err3'"
finish

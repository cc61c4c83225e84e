#!/usr/bin/env bash
# t0401-fuzz: the fuzz strategy (AlphaFuzz MCTS schedule and the queue
# schedule) on a libFuzzer target and on Test-Comp harnesses: input-to-state
# and string compares reach a magic-guarded abort; cgi_decode's error is
# reached and confirmed by replay; -i seeds; raw corpus files; the suite
# validates against the DTDs; bad options fail with one line.  --fuzz-trim
# on trims new seeds (bytes removed, the same coverage by gcc's replay,
# reproducible for a seed); repair fixes a checksum and leaves comparisons
# with a constant to input-to-state; a string compare's feature keeps an
# input that no edge tells apart (a key after a section).
# LABELS: asan
. "$(dirname "$0")/lib.sh"

for sch in mcts queue; do
    "$CTESTGEN" run "$PROGS/fuzz_magic.c" --strategy fuzz --schedule "$sch" --max-execs 20000 \
        --seed 1 -o "$T/magic-$sch" -q || fail "$sch: run exits 0"
    check "$sch: every branch of fuzz_magic.c" [ "$(stat edges.covered "$T/magic-$sch")" = 8 ]
    check "$sch: the abort is recorded" sh -c "ls '$T/magic-$sch/crashes/' | grep -q abort"
    check "$sch: the tree holds inputs" [ "$(stat fuzz.nodes "$T/magic-$sch")" -ge 3 ]
done
# input-to-state finds something in some of four runs (which find gets
# there first is the luck of the seed: havoc finds fuzz_magic's bytes too)
i2s=$(stat fuzz.i2s_finds "$T/magic-mcts")
for s in 2 3 4; do
    "$CTESTGEN" run "$PROGS/fuzz_magic.c" --strategy fuzz --max-execs 20000 --seed $s -o "$T/magic-$s" -q \
        || fail "seed $s: run exits 0"
    i2s=$((i2s + $(stat fuzz.i2s_finds "$T/magic-$s")))
done
check "mcts: finds came from input-to-state ($i2s in seeds 1-4)" [ "$i2s" -ge 1 ]
crash=$(ls "$T/magic-mcts/crashes/" | grep abort | grep -v '\.txt$' | head -1)
check "the crash input holds the magic and the keyword" \
    sh -c "od -An -tx1 '$T/magic-mcts/crashes/$crash' | tr -d ' \n' | grep -q '^cefaedfe6b65793d3713'"

# repair: only comparisons of two computed values (a checksum) are repaired;
# a comparison with a constant is input-to-state's
check "repair: none tried on fuzz_magic, whose compares all have a constant" \
    [ "$(stat fuzz.repair_tries "$T/magic-mcts")" = 0 ]
"$CTESTGEN" run "$PROGS/fuzz_sum.c" --strategy fuzz --max-execs 20000 --seed 1 -o "$T/sum" -q \
    || fail "fuzz_sum: run exits 0"
check "repair: the checksum of fuzz_sum is repaired ($(stat fuzz.repairs "$T/sum") times)" \
    [ "$(stat fuzz.repairs "$T/sum")" -ge 1 ]
check "repair: fuzz_sum's abort behind the checksum is found" sh -c "ls '$T/sum/crashes/' | grep -q abort"
# a libFuzzer target's mutants are repaired from their batch's logged
# comparisons, and trimming what a repair finds leaves the next fix alone
check "repair: tries logged inside batches ($(stat fuzz.repair_in_batch "$T/sum") of $(stat fuzz.repair_tries "$T/sum"))" \
    [ "$(stat fuzz.repair_in_batch "$T/sum")" -ge 1 ]
"$CTESTGEN" run "$PROGS/fuzz_sum.c" --strategy fuzz --fuzz-trim on --max-execs 20000 --seed 1 \
    -o "$T/sum-trim" -q || fail "fuzz_sum --fuzz-trim on: run exits 0"
check "repair with --fuzz-trim on: repaired ($(stat fuzz.repairs "$T/sum-trim") times)" \
    [ "$(stat fuzz.repairs "$T/sum-trim")" -ge 1 ]
check "repair with --fuzz-trim on: the abort is found" sh -c "ls '$T/sum-trim/crashes/' | grep -q abort"

# --fuzz-trim on: seeds lose the bytes their coverage does not need
L="$PROGS/lines_kv.c"
for t in on off; do
    "$CTESTGEN" run "$L" --strategy fuzz --fuzz-trim $t --max-execs 20000 --seed 1 -o "$T/trim-$t" \
        >"$T/trim-$t.out" 2>&1 || fail "--fuzz-trim $t: run exits 0: $(tail -2 "$T/trim-$t.out")"
done
check "trim: seeds were trimmed ($(stat fuzz.trims "$T/trim-on") of them)" [ "$(stat fuzz.trims "$T/trim-on")" -ge 1 ]
check "trim: bytes removed" [ "$(stat fuzz.trimmed_bytes "$T/trim-on")" -gt 0 ]
check "trim off: none" [ "$(stat fuzz.trims "$T/trim-off")" = 0 ]
check "trim: gcc's replay covers what it covers untrimmed ($(stat replay.branches_covered "$T/trim-on"))" \
    [ "$(stat replay.branches_covered "$T/trim-on")" = "$(stat replay.branches_covered "$T/trim-off")" ]
"$CTESTGEN" run "$L" --strategy fuzz --fuzz-trim on --max-execs 20000 --seed 1 -o "$T/trim-on2" -q 2>/dev/null
check "trim: the same seed gives the same corpus" diff -r "$T/trim-on/corpus" "$T/trim-on2/corpus"
"$CTESTGEN" run "$L" --strategy fuzz --fuzz-trim maybe --max-execs 10 -o "$T/trim-bad" 2>"$T/trim-bad.err"
check "trim: a bad value is one line" bash -c "[ \$(wc -l <'$T/trim-bad.err') = 1 ] && grep -q 'fuzz-trim' '$T/trim-bad.err'"

# features: a key line after a section line adds no edge to the two
# lines apart; the string compare's feature (both operands non-empty)
# keeps the first such input, and input-to-state writes "server" into it
mkdir -p "$T/sec-in" && printf '[abc]' >"$T/sec-in/a" && printf 'k=v' >"$T/sec-in/b"
for s in 1 2 3; do
    "$CTESTGEN" run "$PROGS/sections.c" --strategy fuzz -i "$T/sec-in" --max-execs 20000 --seed $s \
        -o "$T/sec-$s" -q 2>/dev/null
    check "feature: seed $s reaches the key in [server]" sh -c "ls '$T/sec-$s/crashes/' | grep -q abort"
done

# auto on a libFuzzer target: the fuzzer runs (in batches) while the others
# wait for it to stall for --auto-stall executions, but for one early slice
# each; a member whose early slice covers something stays in
"$CTESTGEN" run "$EX/tree_parse.c" --max-execs 20000 --seed 1 -o "$T/auto-held" -q ||
    fail "auto, tree_parse: run exits 0"
check "auto: mio, fruitless in its early slice, waits for the fuzzer" \
  [ "$(stat auto.slices.mio "$T/auto-held")" = 1 ]
check "auto: concolic's early slice found goals, so it stays in" \
  [ "$(stat auto.goals.concolic "$T/auto-held")" -gt 0 ]
check "auto: its runs go in batches" [ "$(stat executor.batched_runs "$T/auto-held")" -gt 10000 ]
# where a batched run's time went: ctestgen's work while a batch ran and
# its wait for the program, each within the run's time (the summary says it)
bo=$(stat executor.batch_overlap_s "$T/auto-held")
bw=$(stat executor.batch_wait_s "$T/auto-held")
bs=$(stat seconds "$T/auto-held")
check "batch times: work and wait measured, within the run's $bs s ($bo, $bw)" \
    awk -v o="$bo" -v w="$bw" -v s="$bs" 'BEGIN { exit !(o > 0 && w > 0 && o + w <= s) }'
"$CTESTGEN" run "$EX/tree_parse.c" --strategy fuzz --max-execs 5000 --seed 1 -o "$T/batch-sum" \
    >"$T/batch-sum.log" 2>&1 || fail "fuzz, tree_parse: run exits 0"
check "batch times: in the summary" grep -Eq 'batches +[0-9]+ of [0-9.]+ inputs: ctestgen worked' "$T/batch-sum.log"
"$CTESTGEN" run "$EX/tree_parse.c" --max-execs 20000 --seed 1 --auto-stall 1000 -o "$T/auto-stall" -q ||
    fail "auto --auto-stall 1000, tree_parse: run exits 0"
check "auto: concolic joins once the fuzzer stalled" [ "$(stat auto.slices.concolic "$T/auto-stall")" -gt 0 ]
check "auto: and says when" [ "$(stat auto.released_at "$T/auto-stall")" -gt 1000 ]
# auto where no member covers anything new: a member that still gains
# ground (concolic: new paths, each one clause deeper in assume_chain's
# 3-SAT instance) gets more slices than the fuzzer that finds nothing
"$CTESTGEN" run "$PROGS/assume_chain.c" --max-execs 3000 --auto-slice 100 --seed 1 \
    -o "$T/auto-chain" -q || fail "auto, assume_chain: run exits 0"
check "auto: concolic rewarded for progress ($(stat auto.progress.concolic "$T/auto-chain") slices)" \
    [ "$(stat auto.progress.concolic "$T/auto-chain")" -ge 1 ]
check "auto: concolic gets more slices ($(stat auto.slices.concolic "$T/auto-chain")) than the fuzzer ($(stat auto.slices.fuzz "$T/auto-chain"))" \
    [ "$(stat auto.slices.concolic "$T/auto-chain")" -gt "$(stat auto.slices.fuzz "$T/auto-chain")" ]
check "auto: assume_chain's error behind 260 clauses is reached" \
    [ "$(stat errors.reached "$T/auto-chain")" = 1 ]
# a member let in that finds nothing backs off: 2^k slices after k fruitless
# ones (mio finds nothing here: with UCB alone it took 8 of the 40 slices)
check "auto: mio finds nothing on tree_parse" [ "$(stat auto.goals.mio "$T/auto-stall")" = 0 ]
check "auto: so it backs off ($(stat auto.slices.mio "$T/auto-stall") slices)" \
    [ "$(stat auto.slices.mio "$T/auto-stall")" -le 6 ]

"$CTESTGEN" run "$EX/cgi_decode.c" --strategy fuzz --max-execs 20000 --seed 1 -o "$T/cgi" -q ||
    fail "cgi_decode: run exits 0"
check "cgi_decode: error reached" [ "$(stat errors.reached "$T/cgi")" = 1 ]
"$CTESTGEN" replay "$T/cgi" "$EX/cgi_decode.c" >"$T/cgi-replay.txt" || fail "replay exits 0"
check "cgi_decode: replay (gcc) reaches the error too" grep -q "reach_error: reached" "$T/cgi-replay.txt"
check "cgi_decode: suite validates against the DTDs" \
    xmllint --noout --path "$DTD" --valid "$T/cgi/test-suite/metadata.xml" "$T/cgi"/test-suite/test-*.xml
check "cgi_decode: raw corpus written" [ "$(ls "$T/cgi/corpus" | wc -l)" -ge 2 ]

# -i: a corpus that already holds the answer needs no search at all
mkdir -p "$T/in"
printf 'Hi!\0' >"$T/in/hi"
"$CTESTGEN" run "$EX/cgi_decode.c" --strategy fuzz --max-execs 20 --seed 1 -i "$T/in" \
    -o "$T/seeded" -q || fail "seeded: run exits 0"
check "-i: the seed file reaches the error at once" [ "$(stat errors.reached "$T/seeded")" = 1 ]

# starting points that fail an assumption are still mutated (seed 000 keeps
# every initial input); their own coverage does not count
"$CTESTGEN" run "$PROGS/fuzz_assume.c" --strategy fuzz --max-execs 20000 --seed 1 \
    -o "$T/assume" -q || fail "assume: run exits 0"
check "assume: the error behind the assumption is reached" [ "$(stat errors.reached "$T/assume")" = 1 ]
check "assume: the whole budget was used" [ "$(stat execs "$T/assume")" = 20000 ]

# the same seed gives the same run
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --max-execs 3000 --seed 7 -o "$T/r1" -q
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --max-execs 3000 --seed 7 -o "$T/r2" -q
check "reproducible with --seed" cmp -s <(cat "$T/r1"/corpus/*) <(cat "$T/r2"/corpus/*)

# bad options: one line naming the problem, non-zero exit; a strategy
# option's bad value is a usage error (2) found before the build, also when
# it is a member's option under auto
for a in "--strategy fuzz --mcts-rare nosuch" "--mcts-policy nosuch" "--search nosuch" "--auto-slice-s 0" \
         "--strategy mio --avm 2" "--crossover nosuch"; do
    # shellcheck disable=SC2086
    "$CTESTGEN" run "$EX/triangle.c" $a -o "$T/pre" 2>"$T/pre.err" >/dev/null
    check "$a: exit 2 before the build" bash -c "[ $? = 2 ] && [ ! -e '$T/pre' ] && [ \$(wc -l <'$T/pre.err') = 1 ]"
done
if "$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --schedule lifo -o "$T/bad" 2>"$T/err1"; then
    fail "an unknown schedule is refused"
else
    check "unknown schedule: one line naming it" grep -q "schedule.*lifo" "$T/err1"
fi
if "$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-policy greedy -o "$T/bad3" 2>"$T/err3"; then
    fail "an unknown MCTS policy is refused"
else
    check "unknown MCTS policy: one line naming it" grep -q "mcts-policy.*greedy" "$T/err3"
fi
# the stay policy (a parent competes with its children) runs, reproducibly
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-policy stay --mcts-c 2 --max-execs 3000 --seed 7 -o "$T/st1" -q
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-policy stay --mcts-c 2 --max-execs 3000 --seed 7 -o "$T/st2" -q
check "stay policy: covers edges" [ "$(jq '.counters["edges.covered"]' "$T/st1/stats.json")" -gt 10 ]
check "stay policy: reproducible with --seed" cmp -s <(cat "$T/st1"/corpus/*) <(cat "$T/st2"/corpus/*)
# rare branches: the frontier rule (default) and the seed's; bad names refused
if "$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-rare rarest -o "$T/bad5" 2>"$T/err5"; then
    fail "an unknown rare-branch rule is refused"
else
    check "unknown --mcts-rare: one line naming it" grep -q "mcts-rare.*rarest" "$T/err5"
fi
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-rare seed --max-execs 3000 --seed 7 -o "$T/rs1" -q
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-rare seed --max-execs 3000 --seed 7 -o "$T/rs2" -q
check "seed's rare rule: covers edges" [ "$(jq '.counters["edges.covered"]' "$T/rs1/stats.json")" -gt 10 ]
check "seed's rare rule: reproducible with --seed" cmp -s <(cat "$T/rs1"/corpus/*) <(cat "$T/rs2"/corpus/*)
if "$CTESTGEN" run "$EX/triangle.c" --auto-slice-s 0 --time 1 -o "$T/bad4" 2>"$T/err4"; then
    fail "a slice of 0 seconds is refused"
else
    check "--auto-slice-s 0: one line naming it" grep -q "auto-slice-s" "$T/err4"
fi
printf '"ok"\nbroken\n' >"$T/bad.dict"
if "$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --dict "$T/bad.dict" -o "$T/bad2" 2>"$T/err2"; then
    fail "a malformed dictionary is refused"
else
    check "malformed dictionary: file and line named" grep -q "bad.dict:2:" "$T/err2"
fi
# a libFuzzer target's rounds start at 32 mutants and grow to 256 (a 16th
# of the executions so far): more selections early than 256 from the start
INI="$CTG_SOURCE_DIR/bench/fuzz-programs/ini.c"
for v in grow fixed; do
    extra=; [ $v = fixed ] && extra="--fuzz-batch 256"
    "$CTESTGEN" run "$INI" --strategy fuzz --max-execs 20000 --seed 1 -o "$T/ini-$v" -q $extra \
        >/dev/null 2>&1 || fail "ini ($v rounds): run exits 0"
done
check "growing rounds: more selections ($(stat fuzz.selections "$T/ini-grow")) than 256 from the start ($(stat fuzz.selections "$T/ini-fixed"))" \
    [ "$(stat fuzz.selections "$T/ini-grow")" -gt "$(stat fuzz.selections "$T/ini-fixed")" ]
# --mcts-as-seed: seed 000 in one switch, the same runs as its two options
# spelled out (the seed's policy and rare rule; raw SV comes with the policy)
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-as-seed --max-execs 3000 --seed 7 -o "$T/as1" -q
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-policy seed --mcts-rare seed --max-execs 3000 --seed 7 \
  -o "$T/as2" -q
check "--mcts-as-seed: the runs of --mcts-policy seed --mcts-rare seed" \
  diff -r "$T/as1/corpus" "$T/as2/corpus"
check "--mcts-as-seed: recorded in info" [ "$(jq -r '.info["opt.mcts-as-seed"]' "$T/as1/stats.json")" = "1" ]
"$CTESTGEN" run "$EX/triangle.c" --strategy fuzz --mcts-as-seed --schedule queue -o "$T/as3" 2>"$T/as3.err" >/dev/null
check "--mcts-as-seed with --schedule queue: one-line error" \
  bash -c "[ \$(wc -l <'$T/as3.err') = 1 ] && grep -q 'needs --schedule mcts' '$T/as3.err'"
finish

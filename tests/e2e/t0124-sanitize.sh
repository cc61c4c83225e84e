#!/usr/bin/env bash
# t0124-sanitize: the bugs people fuzz for.
#   - minilib's one-byte heap over-read is invisible to the plain build
#     (--sanitize none) and found with --sanitize address (and by default, a
#     libFuzzer target getting address,undefined), in both ways of paying for ASan (every
#     input under it, or new tests and crashes re-run under it): one crash
#     file, kind heap-buffer-overflow, in ml_decode at decode.c:LINE, with
#     ASan's report in the .txt and a reproduce command that works from any
#     directory;
#   - signed overflow with --sanitize undefined: kind signed-integer-overflow
#     at the line of the multiplication;
#   - a literal null store, which the optimiser would delete, is a crash
#     (segv in main at its line), as gcc -O0 shows it, and the replay check
#     does not disagree.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
ML="$PROGS/minilib"
SRC=("$ML/fuzz/fuzz_minilib.c" "$ML/src/decode.c" "$ML/src/score.c" -I "$ML/include")
line=$(grep -nF 'sum += buf[i]' "$ML/src/decode.c" | cut -d: -f1)

"$CTESTGEN" run "${SRC[@]}" --sanitize none --max-execs 20000 --seed 1 -o "$T/plain" -q 2>/dev/null || fail "plain run"
check "without a sanitizer the over-read is invisible" [ "$(stat crashes "$T/plain")" = 0 ]
for mode in all new; do
  "$CTESTGEN" run "${SRC[@]}" --sanitize address --sanitize-mode $mode --max-execs 20000 --seed 1 \
    -o "$T/$mode" >"$T/$mode.out" 2>&1 || fail "$mode: run: $(tail -3 "$T/$mode.out")"
  check "$mode: one crash file" [ "$(ls "$T/$mode/crashes" | grep -vc '\.txt$')" = 1 ]
  txt=$(ls "$T/$mode"/crashes/*.txt)
  check "$mode: heap-buffer-overflow in ml_decode at decode.c:$line" \
    grep -q "^bug: heap-buffer-overflow in ml_decode at $ML/src/decode.c:$line\$" $txt
  check "$mode: ASan's report is in it" grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" $txt
  check "$mode: the summary lists the bug once" \
    bash -c "grep -c 'heap-buffer-overflow in ml_decode' '$T/$mode.out' | grep -qx 1"
  check "$mode: stats.json lists it" [ "$(jq -r '.bugs[0].kind' "$T/$mode/stats.json")" = heap-buffer-overflow ]
  cmd=$(tail -n 1 $txt)
  rc=0; (cd / && sh -c "$cmd" >/dev/null 2>"$T/$mode.repro") || rc=$?
  check "$mode: the reproduce command works from / (exit $rc, ASan's report)" \
    bash -c "[ $rc != 0 ] && grep -q 'heap-buffer-overflow' '$T/$mode.repro'"
done

"$CTESTGEN" run "${SRC[@]}" --max-execs 20000 --seed 1 -o "$T/dflt" >"$T/dflt.out" 2>&1 || fail "default run"
check "a libFuzzer target's default run finds it too" \
  grep -q "heap-buffer-overflow in ml_decode at $ML/src/decode.c:$line" "$T/dflt.out"
U="$PROGS/ub_overflow.c"
"$CTESTGEN" run "$U" --strategy concolic --max-execs 300 --seed 1 -o "$T/ub0" -q 2>/dev/null
check "signed overflow: no crash without a sanitizer" [ "$(stat crashes "$T/ub0")" = 0 ]
"$CTESTGEN" run "$U" --sanitize undefined --strategy concolic --max-execs 300 --seed 1 -o "$T/ub" \
  >"$T/ub.out" 2>&1 || fail "ub: run: $(tail -3 "$T/ub.out")"
uline=$(grep -n 'return x \* 1000' "$U" | cut -d: -f1)
check "signed overflow: signed-integer-overflow in scale at ub_overflow.c:$uline" \
  grep -q "^bug: signed-integer-overflow in scale at $U:$uline\$" "$T"/ub/crashes/*.txt

N="$PROGS/null_store.c"
nline=$(grep -n 'the null store' "$N" | cut -d: -f1)
"$CTESTGEN" run "$N" --strategy concolic --max-execs 200 --seed 1 -o "$T/null" >"$T/null.out" 2>&1 \
  || fail "null: run: $(tail -3 "$T/null.out")"
check "the literal null store is a crash" [ "$(stat crashes "$T/null")" = 1 ]
check "segv in main at null_store.c:$nline" grep -q "^bug: segv in main at $N:$nline\$" "$T"/null/crashes/*.txt
check "the search and the replay agree on how each test ends" bash -c "! grep -q 'disagree' '$T/null.out'"
"$CTESTGEN" run "$N" --sanitize memory -o "$T/bad" 2>"$T/bad.err"; rc=$?
check "an unsupported sanitizer: usage error naming it (exit $rc)" \
  bash -c "[ $rc = 2 ] && grep -q \"'memory' is not supported\" '$T/bad.err'"
finish

#!/usr/bin/env bash
# t0104-replay-corpus: `ctestgen replay --corpus DIR PROG.c` measures raw
# inputs with the same gcov build as the XML replay.  Our own OUT/corpus
# gives the coverage and verdict of OUT/test-suite; a hand-made AFL-style
# queue (with .state/ and a dot file, skipped) of triangle.c inputs reaches
# the branches its files were written for; a libFuzzer target gets each
# file as its data; a missing or unreadable path is a one-line error and a
# non-zero exit.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

# branches FILE: "covered total" from a replay report.
branches() { sed -n 's/^branches: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$1"; }
# ints A B C...: the little-endian 4-byte encoding of each int.
ints() { for v in "$@"; do printf '%08x' $((v & 0xffffffff)) | sed 's/\(..\)\(..\)\(..\)\(..\)/\\x\4\\x\3\\x\2\\x\1/' | xargs -0 printf; done; }

# Our own corpus vs our own suite.
"$CTESTGEN" run "$EX/triangle.c" --strategy random --max-execs 5000 --seed 3 -o "$T/a" -q || fail "run"
"$CTESTGEN" replay "$T/a" "$EX/triangle.c" >"$T/xml.txt" || fail "xml replay exits 0"
check "corpus replay exits 0" bash -c "'$CTESTGEN' replay --corpus '$T/a/corpus' '$EX/triangle.c' >'$T/raw.txt'"
check "corpus replay names raw inputs" grep -q "^replay: $(ls "$T/a/corpus" | wc -l) raw inputs, 64-bit" "$T/raw.txt"
check "corpus and suite: same coverage ($(branches "$T/xml.txt"))" [ "$(branches "$T/raw.txt")" = "$(branches "$T/xml.txt")" ]
check "corpus and suite: same verdict" [ "$(grep ^reach_error: "$T/xml.txt" | cut -c1-20)" = "$(grep ^reach_error: "$T/raw.txt" | cut -c1-20)" ]

# A hand-made AFL-like queue: an equilateral triangle over 1000 (the error)
# and a scalene one; .state/ and .cur_input are not inputs.
mkdir -p "$T/q/.state/deterministic_done"
ints 2000 2000 2000 >"$T/q/id:000000,orig:eq"
ints 2 3 4 >"$T/q/id:000001,orig:scalene"
printf 'junk' >"$T/q/.cur_input"
"$CTESTGEN" replay --corpus "$T/q" "$EX/triangle.c" >"$T/q.txt" || fail "queue replay exits 0"
check "two raw inputs" grep -q "^replay: 2 raw inputs" "$T/q.txt"
# 2000x3 takes 13 edges (every check false up to a == b && b == c, then
# kind == 1 and a > 1000 true); 2,3,4 adds the false edges of a == b
# (twice), b == c, a == c and kind == 1
check "queue coverage 18/32" [ "$(branches "$T/q.txt")" = "18 32" ]
check "queue reaches the error" grep -q "^reach_error: reached .* by $T/q/id:000000,orig:eq\$" "$T/q.txt"

# A libFuzzer target: the file is the data (alg8_fuzz reads the third int).
mkdir -p "$T/lf"
ints 0 0 3 >"$T/lf/three"
printf 'ab' >"$T/lf/short"
"$CTESTGEN" replay --corpus "$T/lf" "$PROGS/alg8_fuzz.c" >"$T/lf.txt" || fail "libFuzzer replay exits 0"
check "libFuzzer target: 3 of 4 branches" [ "$(branches "$T/lf.txt")" = "3 4" ]

# expect_fail DESC PATTERN COMMAND...: non-zero exit, one stderr line with PATTERN.
expect_fail() {
  local d=$1 pat=$2; shift 2
  if "$@" >"$T/out" 2>"$T/err"; then fail "$d: exited 0"; return; fi
  if [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$pat" "$T/err"; then ok "$d"; else
    fail "$d: stderr '$(cat "$T/err")' lacks '$pat' or is not one line"; fi
}
expect_fail "missing corpus" "nosuch: cannot open the corpus" "$CTESTGEN" replay --corpus "$T/nosuch" "$EX/triangle.c"
ln -s "$T/nowhere" "$T/q/id:000002,dangling"
expect_fail "dangling file in the corpus" "id:000002,dangling: cannot read the file" \
  "$CTESTGEN" replay --corpus "$T/q" "$EX/triangle.c"
rm "$T/q/id:000002,dangling"
if [ "$(id -u)" != 0 ]; then
  ints 1 1 1 >"$T/q/locked"; chmod 000 "$T/q/locked"
  expect_fail "unreadable file in the corpus" "locked: cannot read the corpus file" \
    "$CTESTGEN" replay --corpus "$T/q" "$EX/triangle.c"
fi
expect_fail "no program" "usage: ctestgen replay --corpus" "$CTESTGEN" replay --corpus "$T/q"
expect_fail "--corpus outside replay" "only 'ctestgen replay'" "$CTESTGEN" run "$EX/triangle.c" --corpus "$T/q"
finish

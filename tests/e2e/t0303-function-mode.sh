#!/usr/bin/env bash
# t0303-function-mode: drivers for structs (filled field by field, pointers
# NULL sometimes, up to --depth), enums, arrays paired with their length and
# strings; the regression tests build and pass; the run's gcov figure counts
# the program's branches only; bad uses get one-line errors.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

lib="$PROGS/fn_shapes.c"
check "mio on classify() runs" "$CTESTGEN" run "$lib" --function classify --strategy mio \
  --max-execs 6000 --seed 1 -o "$T/a" -q
d="$T/a/driver_classify.c"
check "driver fills the struct field by field" grep -q 'p->origin' "$d"
check "driver reads the array after its length" grep -q 'w_len = (size_t)(__VERIFIER_nondet_uchar() % 17)' "$d"
check "driver reads the enum among its values" grep -q 'ctg_enum_0\[\] = {1LL, 4LL, 9LL}' "$d"
c=$("$CTESTGEN" replay "$T/a" "$lib" | sed -n "s|^  $lib: branches \([0-9]*\)/\([0-9]*\).*|\1 \2|p")
check "replay covers most of classify ($c)" [ "${c% *}" -ge $(( ${c#* } - 2 )) ]
t="$T/a/tests_classify.c"
check "tests build the nested structs" grep -q 'calloc(1, sizeof \*ctg_' "$t"
check "tests_classify.c compiles with -Wall -Werror" gcc -Wall -Werror -o "$T/tt" "$t" "$lib"
check "tests_classify.c passes" bash -c "'$T/tt' | grep -q ' 0 failed'"

# the run's gcov figure counts the program's branches, not the generated
# driver's: on triangle() (no unreachable code) it equals the engine's
"$CTESTGEN" run "$EX/triangle_fn.c" --function triangle --max-execs 2000 --seed 1 -o "$T/tri" \
  >"$T/tri.out" 2>&1 || fail "run triangle(): $(tail -2 "$T/tri.out")"
eng=$(sed -n 's/^  edges covered *\([0-9]*\/[0-9]*\).*/\1/p' "$T/tri.out")
gco=$(sed -n 's/^  gcov replay *branches \([0-9]*\/[0-9]*\).*/\1/p' "$T/tri.out")
check "function mode: gcov's figure ($gco) is the engine's ($eng)" [ "${eng:-none}" = "$gco" ]
check "function mode: and says the driver is not counted" grep -q "not the generated driver" "$T/tri.out"

err() { "$CTESTGEN" run "$@" -o "$T/e" -q --max-execs 10 2>"$T/err.txt"; }
check "missing function: exit 1" bash -c "! err '$lib' --function nosuch"
err "$lib" --function nosuch
check "missing function: named in one line" bash -c "grep -q \"no function 'nosuch'\" '$T/err.txt' && [ \$(wc -l < '$T/err.txt') = 1 ]"
err "$lib" --function helper
check "static function refused" grep -q "is static" "$T/err.txt"
err "$EX/triangle.c" --function triangle
check "file with main refused" grep -qE "static|defines main" "$T/err.txt"
check "depth 0: struct pointers are always NULL" "$CTESTGEN" run "$lib" --function classify \
  --strategy random --depth 0 --max-execs 200 -o "$T/d0" -q
check "depth 0: no test builds a struct" bash -c "! grep -q 'calloc(1, sizeof \*ctg_' '$T/d0/tests_classify.c'"
finish

#!/usr/bin/env bash
# t0122-project-make: a small library with its own Makefile (programs/
# minilib), built the way its users build it, with CC=ctestgen-cc:
#   - the project's build and its own test (make check) still work, and each
#     object has its bitcode beside it and its compile record inside;
#   - `ctestgen run ./fuzz_minilib` (linked with -fsanitize=fuzzer, as a
#     libFuzzer user links it) and `ctestgen run HARNESS.c libminilib.a`
#     find the program's files in the records;
#   - from another directory, `ctestgen replay OUT` and `ctestgen export OUT`
#     need nothing more, and the printed command compiles the exported
#     tests, which pass;
#   - compiler flags on ctestgen's own command line (-lm, -I, -O2, -Wall) are
#     taken or ignored with a note, and an unknown option is named itself.
. "$(dirname "$0")/lib.sh"
CC_WRAP="$(dirname "$CTESTGEN")/ctestgen-cc"
P="$T/proj"
cp -r "$PROGS/minilib" "$P"
(cd "$P" && make -s CC="$CC_WRAP" >"$T/make.out" 2>&1) || fail "make CC=ctestgen-cc: $(cat "$T/make.out")"
check "the project's own test passes" bash -c "cd '$P' && make -s CC='$CC_WRAP' check | grep -q 'all tests passed'"
check "bitcode beside each object" [ -f "$P/src/.decode.o.ctg.bc" -a -f "$P/src/.score.o.ctg.bc" ]
check "the archive holds compile records" bash -c "readelf -p .ctestgen '$P/libminilib.a' | grep -q decode.c"
(cd "$P" && "$CC_WRAP" -Iinclude fuzz/fuzz_minilib.c libminilib.a -lm -fsanitize=fuzzer -o fuzz_minilib) \
  || fail "link the libFuzzer target with ctestgen-cc"

cd "$T"
"$CTESTGEN" run "$P/fuzz_minilib" --max-execs 3000 --seed 1 -o "$T/out" >"$T/run.out" 2>&1 \
  || fail "run ./fuzz_minilib: $(tail -3 "$T/run.out")"
check "run ./binary: the three files recorded" [ "$(jq '.sources | length' "$T/out/build.json")" = 3 ]
check "run ./binary: with their include directory" grep -q "\"-I$P/include\"" "$T/out/build.json"
check "run ./binary: its harness found (libfuzzer input)" [ "$(jq -r .info.input "$T/out/stats.json")" = libfuzzer ]
check "run ./binary: coverage (> 20 edges)" [ "$(stat edges.covered "$T/out")" -gt 20 ]

mkdir -p "$T/elsewhere" && cd "$T/elsewhere"
"$CTESTGEN" replay "$T/out" >"$T/rep.out" 2>&1 || fail "replay OUT from elsewhere: $(tail -2 "$T/rep.out")"
check "replay from another directory: decode.c's branches counted" grep -q "decode.c: branches [1-9]" "$T/rep.out"
"$CTESTGEN" export "$T/out" --c tests.c >"$T/exp.out" 2>&1 || fail "export: $(cat "$T/exp.out")"
cmd=$(sed -n 's/.*run them: \(.*\) && .\/a.out$/\1/p' "$T/exp.out")
check "export prints an absolute build command" grep -q "^cc $T/elsewhere/tests.c " <<<"$cmd"
mkdir -p "$T/third" && cd "$T/third"
n=$(ls "$T/out/test-suite" | grep -c '^test-')
check "the exported tests compile from a third directory" bash -c "$cmd -o rt"
check "and all $n pass" bash -c "./rt | grep -qx '$n passed, 0 failed'"

cd "$P"
"$CTESTGEN" run fuzz/fuzz_minilib.c libminilib.a --max-execs 2000 --seed 1 -o "$T/arch" -q 2>"$T/arch.err" \
  || fail "run HARNESS.c libminilib.a: $(cat "$T/arch.err")"
check "harness + archive: the archive's files joined" [ "$(jq '.sources | length' "$T/arch/build.json")" = 3 ]
"$CTESTGEN" run fuzz/fuzz_minilib.c src/decode.c src/score.c -I include -lm -O2 -Wall \
  --max-execs 500 -o "$T/flags" >"$T/flags.out" 2>&1 || fail "run with -lm -O2 -Wall: $(tail -2 "$T/flags.out")"
check "-O2 and -Wall ignored with one note" bash -c "grep -c '^ctestgen: note: -O2 ignored' '$T/flags.out' | grep -qx 1"
check "-lm recorded" bash -c "jq -r '.flags[]' '$T/flags/build.json' | grep -qx -- -lm"
"$CTESTGEN" run fuzz/fuzz_minilib.c src/decode.c --frobnicate -o "$T/bad" >"$T/bad.out" 2>&1
check "an unknown option is named itself" grep -q "^ctestgen: --frobnicate: unknown option" "$T/bad.out"
cp "$P/libminilib.a" "$T/plain.a" && objcopy --remove-section .ctestgen "$T/plain.a"
"$CTESTGEN" run fuzz/fuzz_minilib.c "$T/plain.a" -o "$T/bad3" >"$T/bad3.out" 2>&1; rc=$?
check "an archive not built with ctestgen-cc: one line and the way out (exit $rc)" \
  bash -c "[ $rc = 1 ] && grep -q 'plain.a: has no compile records.*CC=ctestgen-cc' '$T/bad3.out'"
finish

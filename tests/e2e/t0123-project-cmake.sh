#!/usr/bin/env bash
# t0123-project-cmake: the same library built with CMake, which writes
# compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS): `ctestgen run
# HARNESS.c --compile-commands build/compile_commands.json` takes the
# library's files and flags from it and leaves out the project's own test
# program (it has a main of its own); replay and export work from another
# directory with nothing but OUT.
. "$(dirname "$0")/lib.sh"
command -v cmake >/dev/null || { echo "skip: cmake is not installed"; exit 77; }
P="$T/proj"
cp -r "$PROGS/minilib" "$P"
cmake -S "$P" -B "$P/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$T/cmake.out" 2>&1 &&
  cmake --build "$P/build" >>"$T/cmake.out" 2>&1 || fail "cmake build: $(tail -3 "$T/cmake.out")"
cd "$T"
"$CTESTGEN" run "$P/fuzz/fuzz_minilib.c" --compile-commands "$P/build/compile_commands.json" \
  --max-execs 3000 --seed 1 -o "$T/out" >"$T/run.out" 2>&1 || fail "run: $(tail -3 "$T/run.out")"
check "the test program with its own main is left out, with a note" \
  grep -q "note: .*test_minilib.c left out: it defines main" "$T/run.out"
check "the harness and the library's two files" [ "$(jq '.sources | length' "$T/out/build.json")" = 3 ]
check "the include directory from the database" grep -q "\"-I$P/include\"" "$T/out/build.json"
check "gcov replay counts the library (no gap warning)" bash -c "! grep -q 'warning: gcc' '$T/run.out'"
mkdir -p "$T/elsewhere" && cd "$T/elsewhere"
"$CTESTGEN" replay "$T/out" >"$T/rep.out" 2>&1 || fail "replay from elsewhere: $(tail -2 "$T/rep.out")"
check "replay from another directory" grep -q "score.c: branches" "$T/rep.out"
"$CTESTGEN" export "$T/out" --c tests.c >"$T/exp.out" 2>&1 || fail "export: $(cat "$T/exp.out")"
cmd=$(sed -n 's/.*run them: \(.*\) && .\/a.out$/\1/p' "$T/exp.out")
n=$(ls "$T/out/test-suite" | grep -c '^test-')
mkdir -p "$T/third" && cd "$T/third"
check "the exported tests compile from a third directory and all $n pass" \
  bash -c "$cmd -o rt && ./rt | grep -qx '$n passed, 0 failed'"
"$CTESTGEN" run "$P/fuzz/fuzz_minilib.c" --compile-commands "$T/none.json" -o "$T/bad" 2>"$T/bad.err"
check "a missing database: one line saying how to make one" \
  bash -c "[ \$(wc -l <'$T/bad.err') = 1 ] && grep -q 'none.json: no such file.*CMAKE_EXPORT_COMPILE_COMMANDS' '$T/bad.err'"
echo '{"x": 1}' >"$T/notdb.json"
"$CTESTGEN" run "$P/fuzz/fuzz_minilib.c" --compile-commands "$T/notdb.json" -o "$T/bad" 2>"$T/bad2.err"
check "a file that is not a database: one line" grep -q "notdb.json: not a compilation database" "$T/bad2.err"
finish

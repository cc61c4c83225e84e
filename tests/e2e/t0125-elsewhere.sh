#!/usr/bin/env bash
# t0125-elsewhere: an output directory works from anywhere. A run is made in
# one directory with a relative source path (cgi_decode.c, flags -DNDEBUG);
# from another directory, and again from /, `report OUT`, `export OUT` and
# `replay OUT` find the program through build.json (absolute sources, the
# run's flags), and replay's figure is the run's own.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/a" "$T/b"
cp "$EX/cgi_decode.c" "$T/a/"
cd "$T/a"
"$CTESTGEN" run cgi_decode.c -DNDEBUG --max-execs 1500 --seed 1 -o out -q 2>"$T/run.err" \
  || fail "run with a relative source: $(cat "$T/run.err")"
check "build.json records the absolute source" \
  [ "$(jq -r '.sources[0]' out/build.json)" = "$T/a/cgi_decode.c" ]
check "build.json records the run's flags" bash -c "jq -r '.flags[]' out/build.json | grep -qx -- -DNDEBUG"
claim="$(stat replay.branches_covered "$T/a/out")/$(stat replay.branches "$T/a/out")"

cd "$T/b"
"$CTESTGEN" report ../a/out >"$T/rep.out" 2>&1 || fail "report ../a/out: $(cat "$T/rep.out")"
check "report from another directory names the program's file" grep -q "cgi_decode.c" "$T/a/out/report/index.html"
"$CTESTGEN" export ../a/out --c tests.c >"$T/exp.out" 2>&1 || fail "export ../a/out: $(cat "$T/exp.out")"
cmd=$(sed -n 's/.*run them: \(.*\) && .\/a.out$/\1/p' "$T/exp.out")
check "export prints a command with absolute paths" grep -q "^cc $T/b/tests.c $T/a/cgi_decode.c" <<<"$cmd"
n=$(ls "$T/a/out/test-suite" | grep -c '^test-')
check "the exported tests compile and all $n pass" bash -c "$cmd -o rt && ./rt | grep -qx '$n passed, 0 failed'"

cd /
"$CTESTGEN" replay "$T/a/out" >"$T/replay.out" 2>&1 || fail "replay from /: $(tail -2 "$T/replay.out")"
check "replay from / counts the program's branches" grep -q "cgi_decode.c: branches [1-9]" "$T/replay.out"
check "replay from / gives the run's own gcov figure ($claim)" grep -q "^branches: $claim " "$T/replay.out"
"$CTESTGEN" report "$T/a/out" >"$T/rep2.out" 2>&1 || fail "report from /: $(cat "$T/rep2.out")"
check "report from / writes into OUT" grep -q "$T/a/out/report/index.html" "$T/rep2.out"
finish

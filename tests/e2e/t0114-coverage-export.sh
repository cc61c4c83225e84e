#!/usr/bin/env bash
# t0114-coverage-export: replay --lcov and --cobertura write the replay's
# gcov data where other tools read it (lcov tracefile for genhtml, Codecov,
# IDEs; Cobertura XML for CI servers), with the same branch counts as the
# replay prints; for a suite and for a raw corpus; `run --lcov` too; a file
# that cannot be written is one line and a non-zero exit.
. "$(dirname "$0")/lib.sh"
P="$EX/cgi_decode.c"
command -v lcov >/dev/null || { echo "skip: lcov not installed (scripts/install-deps.sh installs it)"; finish; exit 0; }

"$CTESTGEN" run "$P" --strategy fuzz --max-execs 3000 --seed 1 -q --no-replay-check -o "$T/out" ||
    fail "run exits 0"
"$CTESTGEN" replay "$T/out" "$P" --lcov "$T/cov.info" --cobertura "$T/cov.xml" >"$T/replay.txt" ||
    fail "replay --lcov --cobertura exits 0"
total=$(sed -n 's/^branches: [0-9]*\/\([0-9]*\) .*/\1/p' "$T/replay.txt")
covered=$(sed -n 's/^branches: \([0-9]*\)\/.*/\1/p' "$T/replay.txt")
check "the replay counted branches" [ "${total:-0}" -gt 10 ]
check "lcov: the tracefile names the program" grep -q "^SF:.*cgi_decode.c$" "$T/cov.info"
check "lcov: one BRDA record per gcov branch" [ "$(grep -c '^BRDA:' "$T/cov.info")" = "$total" ]
check "lcov: as many taken branches as the replay covered" \
    [ "$(grep '^BRDA:' "$T/cov.info" | awk -F, '$4 != "-" && $4 > 0' | wc -l)" = "$covered" ]
if command -v genhtml >/dev/null; then
    genhtml --branch-coverage -q -o "$T/html" "$T/cov.info" >/dev/null 2>&1
    check "genhtml reads the tracefile" [ -f "$T/html/index.html" ]
fi
check "cobertura: well-formed XML" xmllint --noout "$T/cov.xml"
check "cobertura: the program is a class" grep -q 'filename="cgi_decode.c"' "$T/cov.xml"
check "cobertura: the replay's branch counts" \
    grep -q "branches-covered=\"$covered\" branches-valid=\"$total\"" "$T/cov.xml"

# a raw corpus, and run --lcov (the run's own replay check writes it)
"$CTESTGEN" replay --corpus "$T/out/corpus" "$P" --lcov "$T/corpus.info" >/dev/null ||
    fail "replay --corpus --lcov exits 0"
check "lcov of a raw corpus" grep -q "^SF:.*cgi_decode.c$" "$T/corpus.info"
"$CTESTGEN" run "$P" --strategy fuzz --max-execs 2000 --seed 2 -q --lcov "$T/run.info" -o "$T/out2" ||
    fail "run --lcov exits 0"
check "run --lcov writes the tracefile" grep -q "^BRDA:" "$T/run.info"

# a tracefile that cannot be written: one line naming it, non-zero exit
if "$CTESTGEN" replay "$T/out" "$P" --lcov "$T/no/such/dir/cov.info" >/dev/null 2>"$T/err"; then
    fail "an unwritable tracefile is refused"
else
    check "unwritable tracefile: one line naming it" grep -q "no/such/dir/cov.info" "$T/err"
    check "unwritable tracefile: one line" [ "$(wc -l <"$T/err")" = 1 ]
fi
finish

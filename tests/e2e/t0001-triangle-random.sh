#!/usr/bin/env bash
# t0001-triangle-random: the README's run on examples/triangle.c.  The suite
# validates against the Test-Comp DTDs, replay (gcc + gcov) agrees with our
# reach-error verdict and coverage, and the same seed gives the same suite.
. "$(dirname "$0")/lib.sh"

run() { "$CTESTGEN" run "$EX/triangle.c" --strategy random --max-execs 20000 --seed 1 -o "$1" -q; }
check "run exits 0" run "$T/a"
check "suite has metadata" [ -f "$T/a/test-suite/metadata.xml" ]
n=$(ls "$T/a/test-suite"/test-*.xml | wc -l)
check "tests were kept ($n)" [ "$n" -ge 5 ]
check "tests == stats" [ "$n" = "$(stat tests "$T/a")" ]
check "corpus has one raw file per test" [ "$(ls "$T/a/corpus" | wc -l)" = "$n" ]
check "suite validates against the DTDs" xmllint --noout --valid --nonet --path "$DTD" "$T/a/test-suite"/*.xml

# The validation can fail: a testcase with a foreign element is rejected.
cp "$T/a/test-suite/test-00000.xml" "$T/bad.xml"
sed -i 's|</testcase>|<note/></testcase>|' "$T/bad.xml"
check "DTD validation rejects a bad testcase" bash -c "! xmllint --noout --valid --nonet --path '$DTD' '$T/bad.xml' 2>/dev/null"

# Our verdict vs replay's.
ours=no; grep -lq 'coversError="true"' "$T/a/test-suite"/test-*.xml 2>/dev/null && ours=yes
[ "$(stat errors.reached "$T/a")" -gt 0 ] && [ "$ours" = no ] && fail "errors.reached but no coversError test"
"$CTESTGEN" replay "$T/a" "$EX/triangle.c" >"$T/replay.txt" || fail "replay exits 0"
theirs=no; grep -q "reach_error: reached" "$T/replay.txt" && theirs=yes
check "replay agrees on reach_error ($ours)" [ "$ours" = "$theirs" ]
cov=$(sed -n 's/^branches: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$T/replay.txt")
check "replay coverage equals ours ($cov)" [ "$cov" = "$(stat edges.covered "$T/a") $(stat edges.total "$T/a")" ]

# Reproducible: same seed, same tests (metadata differs only in creationtime).
check "second run exits 0" run "$T/b"
check "same seed, same suite" diff -r -x metadata.xml "$T/a/test-suite" "$T/b/test-suite"
"$CTESTGEN" run "$EX/triangle.c" --strategy random --max-execs 2000 --seed 2 -o "$T/c" -q
check "other seed, other suite" bash -c "! diff -rq -x metadata.xml '$T/a/test-suite' '$T/c/test-suite' >/dev/null"
finish

#!/usr/bin/env bash
# t0503-concolic-examples: examples/triangle.c and examples/cgi_decode.c
# reach 100% branch coverage as gcov measures it (ctestgen replay) with the
# concolic strategy, and the error of each; stats.json and the summary carry
# the concolic statistics of seed 003 section 5.
. "$(dirname "$0")/lib.sh"

for p in triangle cgi_decode; do
    "$CTESTGEN" run "$EX/$p.c" --strategy concolic --max-execs 400 --seed 1 -o "$T/$p" \
        >"$T/$p.txt" || fail "$p: run exits 0"
    "$CTESTGEN" replay "$T/$p" "$EX/$p.c" >"$T/$p-replay.txt" || fail "$p: replay exits 0"
    check "$p: gcov branch coverage 100%" grep -q "^branches: .*(100.00%)" "$T/$p-replay.txt"
    check "$p: replay reaches the error" grep -q "reach_error: reached" "$T/$p-replay.txt"
    check "$p: suite validates against the DTDs" \
        xmllint --noout --valid --nonet --path "$DTD" "$T/$p/test-suite"/*.xml
    for k in concolic.paths concolic.pc_min concolic.pc_avg concolic.pc_max solver.queries \
        solver.sat solver.unsat solver.timeout solver.cache_hit_rate concolic.solver_secs \
        concolic.exec_secs; do
        check "$p: stats.json has $k" jq -e ".counters[\"$k\"] != null" "$T/$p/stats.json" >/dev/null
    done
    check "$p: summary shows the concolic statistics" grep -q "path conditions .* (min/avg/max)" "$T/$p.txt"
    check "$p: summary shows the solver statistics" grep -q "queries: .* sat, .* unsat" "$T/$p.txt"
done
"$CTESTGEN" --help >"$T/help.txt"
check "--help says how floating point is handled" grep -q "floating point is symbolic" "$T/help.txt"
check "--help lists the search orders" grep -q "generational|dfs|bfs|random-branch" "$T/help.txt"
finish

#!/usr/bin/env bash
# t0117-report: `run --report` and `ctestgen report OUT` write one
# self-contained page, OUT/report/index.html: the summary, every source line
# annotated with gcov's counts and the first test that ran it, the
# coverage-over-time plot (inline SVG), auto's members, the reached errors
# with their reproduce commands.  When chromium can render a page here, it
# loads the report from disk: the DOM it builds has the annotated lines and
# the plot, and its screenshot is not blank (far larger than a blank
# page's).  A missing output directory is a one-line error.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$EX/cgi_decode.c"
"$CTESTGEN" run "$P" --max-execs 3000 --seed 1 -o "$T/a" --report >"$T/a.out" 2>&1 || fail "run --report: $(tail -3 "$T/a.out")"
R="$T/a/report/index.html"
check "run --report: says where the report is" grep -q "report  *$T/a/report/index.html" "$T/a.out"
check "report: written" [ -s "$R" ]
check "report: one row per source line ($(wc -l <"$P"))" [ "$(grep -c '<tr class="line ' "$R")" = "$(wc -l <"$P")" ]
check "report: every line with code ran (cgi_decode is fully covered)" bash -c "! grep -q 'class=\"line miss\"' '$R'"
check "report: lines name the first test that ran them" grep -q '<td class="t">test-000[0-9][0-9].xml' "$R"
check "report: the gcov figure" grep -q 'id="gcov">branches 36/36' "$R"
check "report: the coverage plot" grep -q '<svg id="cov-plot"' "$R"
check "report: auto's members" grep -q '<td>fuzz</td>' "$R"
check "report: the reached error with its reproduce command" grep -q 'CTESTGEN_INPUT=.*error-00000' "$R"
check "report: self-contained (no script, no link, no remote URL)" \
  bash -c "! grep -qiE '<script|<link|src=\"http|href=\"http' '$R'"

rm -rf "$T/a/report"
"$CTESTGEN" report "$T/a" >"$T/r.out" 2>&1 || fail "ctestgen report: $(cat "$T/r.out")"
check "ctestgen report OUT: the program from stats.json" [ -s "$R" ]
"$CTESTGEN" report "$T/nosuch" 2>"$T/err"
check "report on a missing directory: fails" [ $? != 0 ]
check "report on a missing directory: one line naming it" bash -c "[ \$(wc -l <'$T/err') = 1 ] && grep -q nosuch '$T/err'"

# the page in a real browser
CHROME=$(command -v chromium || command -v chromium-browser || true)
chrome() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
             --user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.err"; }
if [ -z "$CHROME" ]; then
  echo "skip: chromium not installed: the report is not checked in a browser"
elif ! chrome --dump-dom "data:text/html,<p>probe-ok</p>" | grep -q probe-ok; then
  echo "skip: chromium cannot render here: $(tail -1 "$T/chrome.err")"
else
  chrome --dump-dom "file://$R" >"$T/dom.html"
  check "browser: the DOM has the annotated lines" [ "$(grep -c 'class="line hit"' "$T/dom.html")" -ge 30 ]
  check "browser: the DOM has the plot's line" grep -q '<polyline' "$T/dom.html"
  (cd "$T" && chrome --screenshot="$T/report.png" --window-size=1000,1400 "file://$R" >/dev/null)
  printf '<!DOCTYPE html><html><body></body></html>' >"$T/blank.html"
  (cd "$T" && chrome --screenshot="$T/blank.png" --window-size=1000,1400 "file://$T/blank.html" >/dev/null)
  rs=$(wc -c <"$T/report.png"); bs=$(wc -c <"$T/blank.png")
  check "browser: a screenshot of the report ($rs bytes, blank page $bs)" [ "$rs" -gt $((bs * 5)) ]
fi
finish

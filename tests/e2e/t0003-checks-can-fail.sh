#!/usr/bin/env bash
# t0003-checks-can-fail: in the e2e tests, a check's condition is one
# command.  `check "what" [ A ] && [ B ]` passes check [ A ] alone and leaves
# [ B ] to the shell, which does not stop on it: B could never fail the test
# (seven checks were so).  Conditions with && belong in one [ ... -a ... ],
# a function, or bash -c "...".
. "$(dirname "$0")/lib.sh"
cd "$CTG_SOURCE_DIR/tests/e2e" || fail "no tests/e2e/"
# a check line, continued over backslash-newlines, whose command is [ and
# that goes on with && or || after the closing ]
bad=$(awk '
  /^[ \t]*check "/ { line = $0; start = FILENAME ":" FNR; while (line ~ /\\$/ && (getline more) > 0) line = substr(line, 1, length(line) - 1) more
    sub(/^[ \t]*check "([^"\\]|\\.)*" +/, "", line)
    if (line ~ /^\[ / && line ~ /\] *(&&|\|\|)/) print start }' t[0-9]*.sh)
check "every check's condition is one command${bad:+: $(tr '\n' ' ' <<<"$bad")}" [ -z "$bad" ]
# the check can fail: the pattern is found in a made-up test
printf 'check "x" [ 1 = 1 ] && [ 1 = 2 ]\n' >"$T/t9999-made-up.sh"
made=$(cd "$T" && awk '/^[ \t]*check "/ { line = $0; sub(/^[ \t]*check "([^"\\]|\\.)*" +/, "", line)
  if (line ~ /^\[ / && line ~ /\] *(&&|\|\|)/) print FILENAME }' t9999-made-up.sh)
check "a made-up check with && is found" [ "$made" = t9999-made-up.sh ]
finish

#!/usr/bin/env bash
# t0111-contained: a program that writes files (relative paths, after a
# chdir into a directory it makes), forks in a loop and leaves a background
# process behind: under `run` and `replay` nothing of it lands in the
# directory ctestgen was started from, no scratch directory is left, and no
# process of it outlives the command.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$PROGS/escape.c"
mkdir -p "$T/cwd"
cd "$T/cwd" || exit 1
mark="sleep 31.4159"
leftovers() { pgrep -f "$mark" | wc -l; }
pkill -f "$mark" 2>/dev/null

"$CTESTGEN" run "$P" --strategy fuzz --max-execs 2000 -q -o "$T/out" || fail "run failed"
check "run: reached the background-process branch (n == 42)" \
  bash -c "grep -l '<input[^>]*>42</input>' '$T'/out/test-suite/test-*.xml >/dev/null"
check "run: nothing written where ctestgen was started" [ -z "$(ls -A "$T/cwd")" ]
check "run: no scratch directory left in the output" [ ! -e "$T/out/.work" ]
check "run: no file of the program left anywhere" [ -z "$(find "$T" -name 'ctg-escape-*')" ]
check "run: no background process left" [ "$(leftovers)" = 0 ]

"$CTESTGEN" replay "$T/out" "$P" >"$T/replay" 2>&1 || fail "replay failed: $(cat "$T/replay")"
check "replay: ran the tests" grep -q "^branches:" "$T/replay"
check "replay: nothing written where ctestgen was started" [ -z "$(ls -A "$T/cwd")" ]
check "replay: no file of the program left anywhere" [ -z "$(find "$T" /tmp -maxdepth 3 -name 'ctg-escape-*' 2>/dev/null)" ]
check "replay: no background process left" [ "$(leftovers)" = 0 ]
pkill -f "$mark" 2>/dev/null
finish

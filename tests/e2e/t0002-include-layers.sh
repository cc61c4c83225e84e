#!/usr/bin/env bash
# t0002-include-layers: no cycle between the directories of src/ in their
# #include lines (a directory that includes another's header depends on
# it); tsort finds any loop.  A new cycle fails here, naming the
# directories on it.  The structure picture of docs/ARCHITECTURE.md is the
# one scripts/layers draws today.
. "$(dirname "$0")/lib.sh"
cd "$CTG_SOURCE_DIR/src" || fail "no src/"
pairs=$(for d in */; do
  d=${d%/}
  grep -rhoE '#include "(\.\./)+[a-z_]+/' "$d" --include='*.c' --include='*.h' |
    sed -E 's|#include "(\.\./)+||; s|/||' | sort -u | while read -r to; do
      [ "$to" != "$d" ] && echo "$d $to"
    done
done)
check "the directory graph has edges ($(wc -l <<<"$pairs"))" [ "$(wc -l <<<"$pairs")" -gt 10 ]
loops=$(tsort <<<"$pairs" 2>&1 >/dev/null)
check "no include cycle between src/ directories${loops:+: $(tr '\n' ' ' <<<"$loops")}" [ -z "$loops" ]
# the check can fail: a cycle made up here is found
check "a made-up cycle is found" bash -c "! tsort <<<'a b
b a' >/dev/null 2>&1"
# the structure picture in docs/ARCHITECTURE.md is today's: the same
# directories on the same floors as scripts/layers draws them (line counts
# left out: they move with every change)
floors() { awk '/^floor [0-9]+  [a-z_]+\//{ printf "%s %s %s |", $1, $2, $3 }'; }
now=$("$CTG_SOURCE_DIR/scripts/layers" | floors)
doc=$(floors <"$CTG_SOURCE_DIR/docs/ARCHITECTURE.md")
same_picture() { [ -n "$now" ] && [ "$now" = "$doc" ]; }
check "docs/ARCHITECTURE.md's picture matches scripts/layers" same_picture
finish

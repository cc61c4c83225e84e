#!/usr/bin/env bash
# t0107-disk-full: the output directory on a full file system (a 48 KiB
# tmpfs when this host lets us mount one, else CTESTGEN_FAULT_WRITES_AFTER,
# which fails every write after the first N): one line about it, the search
# stops (or, with --on-write-error continue, goes on without writing), the
# summary counts the tests on disk, every file on disk is whole, exit code 3.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

D="$T/disk"
mkdir -p "$D"
if [ -z "${CTG_NO_MOUNT:-}" ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=48k tmpfs "$D" 2>/dev/null; then
  echo "using a 48 KiB tmpfs"
  trap 'umount "$D" 2>/dev/null; rm -rf "$T"' EXIT
  FAULT=()
else
  echo "cannot mount a tmpfs here: injecting write failures instead"
  FAULT=(env CTESTGEN_FAULT_WRITES_AFTER=8)
fi

run() { # run NAME ARGS...: exit code in $T/NAME.rc
  local n=$1; shift
  "${FAULT[@]}" "$CTESTGEN" run "$EX/cgi_decode.c" --strategy random --max-execs 20000 --seed 1 \
    -o "$D/$n" "$@" >"$T/$n.out" 2>"$T/$n.err"
  echo $? >"$T/$n.rc"
}
on_disk() { find "$D/$1/test-suite" -name 'test-*.xml' | wc -l; }

run stop
check "stop: exit code 3" [ "$(cat "$T/stop.rc")" = 3 ]
check "stop: the failure is named once (plus the final error line)" \
  [ "$(grep -c 'cannot write' "$T/stop.err")" -le 2 ]
check "stop: stopped because of the output" grep -q "stopped: the output could not be written" "$T/stop.out"
kept=$(sed -n 's/^  tests kept *\([0-9]*\) (on disk)$/\1/p' "$T/stop.out")
check "stop: summary counts the tests on disk ($kept)" [ "${kept:-none}" = "$(on_disk stop)" ]
check "stop: a corpus file per test" [ "$(find "$D/stop/corpus" -type f | wc -l)" = "$(on_disk stop)" ]
check "stop: summary names what was not written" grep -q "NOT WRITTEN" "$T/stop.out"
check "stop: no partial temporary files left" [ -z "$(find "$D/stop" -name '*.tmp.*')" ]
check "stop: stats.json is valid JSON" jq -e .counters "$D/stop/stats.json" >/dev/null
for f in "$D"/stop/test-suite/test-*.xml; do
  xmllint --noout "$f" 2>/dev/null || fail "stop: $f is not well formed"
done
check "stop: the suite on disk replays" "$CTESTGEN" replay "$D/stop" "$EX/cgi_decode.c"

rm -rf "$D/stop"
run cont --on-write-error continue
check "continue: exit code 3" [ "$(cat "$T/cont.rc")" = 3 ]
check "continue: searched the whole budget" grep -q "20000 executions" "$T/cont.out"
check "continue: the failure is named once" [ "$(grep -c 'cannot write' "$T/cont.err")" -le 2 ]
check "continue: summary counts the tests on disk" \
  grep -q "^  tests kept *$(on_disk cont) (on disk)$" "$T/cont.out"
# the build: the child that writes progdb.json (beside the passes) reports
# its failure through the parent, and no cache entry is left
CTESTGEN_CACHE="$T/bcache" CTESTGEN_FAULT_WRITES_AFTER=1 "$CTESTGEN" build "$EX/triangle.c" \
  >"$T/b.out" 2>"$T/b.err"
check "build: a failed write of the program database fails the build" [ $? != 0 ]
check "build: one line naming progdb.json" \
  sh -c "[ \"\$(grep -c . '$T/b.err')\" = 1 ] && grep -q 'progdb.json: cannot write' '$T/b.err'"
check "build: no cache entry is left" [ -z "$(ls -A "$T/bcache")" ]
expect=2
"$CTESTGEN" run "$EX/cgi_decode.c" --on-write-error sometimes -o "$T/x" >/dev/null 2>&1
check "bad --on-write-error is a usage error" [ $? = "$expect" ]
check "--help documents exit code 3" bash -c "'$CTESTGEN' --help | grep -q '3 the output could not'"
finish

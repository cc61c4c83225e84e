#!/usr/bin/env bash
# bench/run-all.sh - every benchmark once with short defaults (`make bench`):
# bench/throughput, bench/concolic, bench/sbst/run.sh, bench/fuzz, bench/hang,
# bench/learned and bench/testcomp.  Each
# script documents its own full-size invocation in its header.
#
#   bench/run-all.sh [BUILD]      (default: build, or $BUILD)
#
# bench/fuzz runs with STRATEGY="auto fuzz" when ctestgen has fuzz, else
# with random in its place (said so in the output); set STRATEGY to choose.
# A failing benchmark does not stop the others; the exit status is 1 if any
# failed.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${1:-${BUILD:-$ROOT/build}}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export BUILD
[ -x "$BUILD/ctestgen" ] || { echo "run-all: $BUILD/ctestgen missing; run make build" >&2; exit 1; }

status=0
# bench NAME COMMAND...: one benchmark with a banner.
bench() {
    local name=$1
    shift
    echo "==== $name"
    if ! "$@"; then
        echo "run-all: $name failed" >&2
        status=1
    fi
    echo
}

if [ -z "${STRATEGY:-}" ]; then
    if grep -q '^  fuzz ' <<<"$("$BUILD/ctestgen" --help)"; then
        STRATEGY="auto fuzz" # the default strategy and the fuzzer, side by side
    else
        STRATEGY=random
        echo "run-all: ctestgen has no fuzz strategy yet; bench/fuzz runs with --strategy random"
    fi
fi

bench "bench/throughput 2 3" "$HERE/throughput" 2 3
bench "bench/concolic 100 5 10" "$HERE/concolic" 100 5 10
bench "bench/sbst/run.sh -s 2 -n 2000" env CTESTGEN="$BUILD/ctestgen" "$HERE/sbst/run.sh" -s 2 -n 2000
bench "bench/fuzz 10 (STRATEGY=$STRATEGY)" env STRATEGY="$STRATEGY" "$HERE/fuzz" 10
bench "bench/hang 5 1" "$HERE/hang" 5 1
bench "bench/learned 100 2 (4 programs)" env PROGRAMS="$HERE/concolic-programs/calc.c $HERE/concolic-programs/cmd.c $HERE/fuzz-programs/fsm.c $HERE/fuzz-programs/expr.c" LEARN="--samples 4 --top 2 --checks 2 --rounds 2" "$HERE/learned" 100 2
bench "bench/testcomp 5 10 (first 10 tasks)" "$HERE/testcomp" 5 10
exit $status

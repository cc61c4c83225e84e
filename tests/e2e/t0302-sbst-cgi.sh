#!/usr/bin/env bash
# t0302-sbst-cgi: mio on seed 001's cgi_decode in function mode (strings of
# variable length) covers every branch of cgi_decode_fn.c by replay; the
# regression tests check the output buffer too.  Then the Test-Comp harness
# examples/triangle.c: every search-based strategy reaches its error.
. "$(dirname "$0")/lib.sh"

lib="$EX/cgi_decode_fn.c"
check "mio runs" "$CTESTGEN" run "$lib" --function cgi_decode --strategy mio --max-execs 5000 --seed 1 -o "$T/m" -q
c=$("$CTESTGEN" replay "$T/m" "$lib" | sed -n "s|^  $lib: branches \([0-9]*/[0-9]*\).*|\1|p")
check "replay: every branch of cgi_decode_fn.c ($c)" [ "$c" = "24/24" ]
t="$T/m/tests_cgi_decode.c"
check "tests check the decoded buffer" grep -q 'memcmp(t, ' "$t"
check "tests_cgi_decode.c compiles with -Wall -Werror" gcc -Wall -Werror -o "$T/tt" "$t" "$lib"
check "tests_cgi_decode.c passes" bash -c "'$T/tt' | grep -q ' 0 failed'"

for s in mio mosa dynamosa wts; do
  "$CTESTGEN" run "$EX/triangle.c" --strategy $s --max-execs 4000 --seed 1 -o "$T/h$s" -q
  check "$s on the Test-Comp triangle reaches the error" [ "$(stat errors.reached "$T/h$s")" = 1 ]
done
finish

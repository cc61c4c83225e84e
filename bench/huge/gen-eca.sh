#!/usr/bin/env bash
# bench/huge/gen-eca.sh - writes a generated reactive state machine in the
# style of the RERS / eca-rers Test-Comp tasks, of about KB kilobytes, to
# stdout: state variables a0..a11, a main loop reading one input a step,
# and calculate_output functions of CHUNK rules each (each function ends by
# calling the next, as RERS programs do), every rule an `if` over two state
# variables and the input that updates the state; one rule in 97 is an error
# (`reach_error()`).  The same KB and SEED give the same program.
#
#   bench/huge/gen-eca.sh KB [SEED] [CHUNK] > prog.c     (defaults: seed 1, 2000)
#
# Used by bench/huge/run and by tests/e2e/t0119-huge.sh (huge programs: build
# stages, -O0 code generation, prog.sym built while the search starts).
set -eu
KB=${1:?usage: gen-eca.sh KB [SEED] [CHUNK]}
SEED=${2:-1}
CHUNK=${3:-2000}
awk -v kb="$KB" -v seed="$SEED" -v chunk="$CHUNK" '
# Park-Miller: exact in doubles, the same in every awk
function rnd(n) { x = (x * 16807) % 2147483647; return x % n }
BEGIN {
  x = seed * 7919 + 17
  nv = 12
  print "extern int __VERIFIER_nondet_int(void);"
  print "extern void abort(void);"
  print "void reach_error(void) {}"
  for (v = 0; v < nv; v++) printf "int a%d = %d;\n", v, v % 3
  rules = int(kb * 1024 / 78); if (rules < 1) rules = 1
  nf = int((rules + chunk - 1) / chunk)
  for (f = nf; f >= 1; f--) printf "int calculate_output%d(int input);\n", f
  r = 0
  for (f = 1; f <= nf; f++) {
    printf "int calculate_output%d(int input) {\n", f
    for (k = 0; k < chunk && r < rules; k++) {
      r++
      p = rnd(nv); q = rnd(nv); if (q == p) q = (p + 1) % nv
      if (r % 97 == 0) {
        printf "  if ((a%d == %d) && (a%d == %d) && (input == %d)) { error_%d: reach_error(); abort(); }\n", p, rnd(4), q, rnd(4), 1 + rnd(6), r
        continue
      }
      printf "  if ((a%d == %d) && (a%d == %d) && (input == %d)) { a%d = %d; a%d = %d; return %d; }\n", p, rnd(4), q, rnd(4), 1 + rnd(6), p, rnd(4), q, rnd(4), 18 + rnd(8)
    }
    if (f < nf) printf "  return calculate_output%d(input);\n}\n", f + 1
    else print "  return -2;\n}"
  }
  print "int main(void) {"
  print "  while (1) {"
  print "    int input = __VERIFIER_nondet_int();"
  print "    if (input < 1 || input > 6) return -2;"
  print "    if (calculate_output1(input) == -2) return 0;"
  print "  }"
  print "}"
}'

#!/usr/bin/env bash
# t0502-concolic-arrays: seed 003's algorithms 8 and 9 (symbolic array
# length, select/store) in C are fully covered under both array models;
# with symbolic indices (alg9_index.c) array theory covers every branch
# while concretised indices miss the one that needs x[i] with i moved.
. "$(dirname "$0")/lib.sh"

covered() { [ "$(stat edges.covered "$1")" = "$(stat edges.total "$1")" ]; }
for p in alg8 alg8_fuzz alg9; do
    for m in concretize theory; do
        "$CTESTGEN" run "$PROGS/$p.c" --strategy concolic --sym-arrays "$m" --max-execs 60 \
            --seed 1 -o "$T/$p-$m" -q || fail "$p $m: run exits 0"
        check "$p, --sym-arrays=$m: every branch covered" covered "$T/$p-$m"
    done
done

"$CTESTGEN" run "$PROGS/alg9_index.c" --strategy concolic --sym-arrays theory --max-execs 60 \
    --seed 1 -o "$T/idx-theory" -q
check "alg9_index, theory: every branch covered" covered "$T/idx-theory"
"$CTESTGEN" run "$PROGS/alg9_index.c" --strategy concolic --sym-arrays concretize --max-execs 60 \
    --seed 1 -o "$T/idx-conc" -q
check "alg9_index, concretize: a branch stays uncovered" bash -c "! [ '$(stat edges.covered "$T/idx-conc")' = '$(stat edges.total "$T/idx-conc")' ]"
"$CTESTGEN" run "$PROGS/alg9_index.c" --strategy concolic --sym-arrays bogus -o "$T/bad" -q 2>"$T/err.txt"
check "an unknown array model is refused" grep -q "sym-arrays: unknown model 'bogus'" "$T/err.txt"
finish

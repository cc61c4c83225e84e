#!/bin/bash
# t0100-build.sh - `ctestgen build` end to end: the one-line errors for a
# missing file, a file that does not compile and a program without entry
# point; examples/triangle.c builds, is cached the second time, and its
# prog.cov runs stand-alone on a raw input (CTESTGEN_INPUT) with the
# expected results; inline assembly gives a warning; --arch 32 when the
# 32-bit runtime exists (with a concolic run of a libFuzzer target).
# LABELS: asan
. "$(dirname "$0")/lib.sh"
: "${CTG_BUILD_DIR:?}"
export CTESTGEN_CACHE="$T/cache"

# expect_error WANT ARGS...: non-zero exit, empty stdout, last stderr line = WANT
expect_error() {
    local want="$1"; shift
    "$CTESTGEN" build "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -ne 0 ] || fail "build $*: exit 0"
    [ ! -s "$T/out" ] || fail "build $*: wrote to stdout"
    local last
    last=$(tail -n 1 "$T/err")
    [ "$last" = "ctestgen: $want" ] || fail "build $*: got '$last', want 'ctestgen: $want'"
}

expect_error "$T/none.c: no such file" "$T/none.c"

printf 'int main(void)\n{\n    return x + y;\n}\n' >"$T/bad.c"
expect_error "$T/bad.c: does not compile (clang-14 reported 2 errors above); fix them or pass -I/-D flags" "$T/bad.c"
grep -q "use of undeclared identifier 'x'" "$T/err" || fail "clang's diagnostics are not on stderr"

printf 'int f(int a) { return a > 1; }\n' >"$T/lib.c"
expect_error "$T/lib.c: defines neither main nor LLVMFuzzerTestOneInput; write a harness or use --function NAME" "$T/lib.c"

# triangle: built, then cached
"$CTESTGEN" build "$CTG_SOURCE_DIR/examples/triangle.c" >"$T/out" 2>"$T/err" || fail "triangle: $(cat "$T/err")"
grep -q "^branches  16 (32 edges)" "$T/out" || fail "triangle: unexpected counts: $(cat "$T/out")"
grep -q "(cached)" "$T/out" && fail "first build claims to be cached"
"$CTESTGEN" build "$CTG_SOURCE_DIR/examples/triangle.c" >"$T/out2" 2>&1 || fail "second build"
grep -q "(cached)" "$T/out2" || fail "second build not cached"
bin=$(awk '/^binary/ {print $2}' "$T/out")

# le32 N: the 4 bytes of N, little endian
le32() {
    local i
    for i in 0 8 16 24; do printf "\\x$(printf %02x $((($1 >> i) & 255)))"; done
}
# run_bin BIN A B C: runs BIN on three little-endian ints, prints its exit code
run_bin() {
    { le32 "$2"; le32 "$3"; le32 "$4"; } >"$T/in"
    CTESTGEN_INPUT="$T/in" timeout 10 "$1" >/dev/null 2>&1
    echo $?
}
[ "$(run_bin "$bin" 1 2 3)" = 4 ] || fail "triangle(1,2,3) is not invalid (4)"
[ "$(run_bin "$bin" 5 5 5)" = 1 ] || fail "triangle(5,5,5) is not equilateral (1)"
[ "$(run_bin "$bin" 3 4 5)" = 3 ] || fail "triangle(3,4,5) is not scalene (3)"
[ "$(run_bin "$bin" 1001 1001 1001)" = 86 ] || fail "triangle(1001,1001,1001) does not reach the error"

# inline assembly: built, with a warning
cat >"$T/asm.c" <<'EOF'
int main(void) { int x = 1; __asm__ volatile("" : "+r"(x)); if (x > 0) return 0; return 1; }
EOF
"$CTESTGEN" build "$T/asm.c" >"$T/out" 2>"$T/err" || fail "asm: $(cat "$T/err")"
grep -q "warning: 1 inline assembly statement left uninstrumented" "$T/err" || fail "asm: no warning"

# 32 bits
if [ -s "$CTG_BUILD_DIR/rt/libctg_rt32.a" ] && [ "$(wc -c <"$CTG_BUILD_DIR/rt/libctg_rt32.a")" -gt 64 ] && exec32; then
    "$CTESTGEN" build --arch 32 "$CTG_SOURCE_DIR/examples/triangle.c" >"$T/out" 2>"$T/err" || fail "m32: $(cat "$T/err")"
    bin32=$(awk '/^binary/ {print $2}' "$T/out")
    [ "$(od -An -tu1 -j4 -N1 "$bin32" | tr -d ' ')" = 1 ] || fail "m32: not a 32-bit ELF binary"
    [ "$(run_bin "$bin32" 1001 1001 1001)" = 86 ] || fail "m32: error not reached"
    # the symbolic build of a libFuzzer target: size_t is 32 bits, and the
    # entry's cast of it is the pass's own code, not the program's
    "$CTESTGEN" run --arch 32 "$CTG_SOURCE_DIR/examples/tree_parse.c" --strategy concolic --max-execs 20 \
        -q -o "$T/tp32" >"$T/out" 2>"$T/err" || fail "m32 concolic on a libFuzzer target: $(tail -1 "$T/err")"
fi

[ $fails -eq 0 ] && echo "ok" || exit 1

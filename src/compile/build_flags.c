/*
 * build_flags.c - the flags of every compile of a C file to the engine's
 * bitcode (build.h, build_clang_flags): the build's and ctestgen-cc's, in
 * a file of its own so that the wrapper does not pull in LLVM.
 */
#include "build.h"

/* The flags of every compile to bitcode (build.h).
 * -ftrivial-auto-var-init=zero: an uninitialised local reads 0, as it
 * mostly does in the gcc -O0 build the validator replays (a fresh stack);
 * otherwise a program testing one runs other paths here than there.
 * -gline-tables-only: the lines and columns progdb records, without the
 * variables and types of -g (a third of the compile time of a 1 MB
 * generated program, and more for the passes that read and drop them).
 * The -O0 faults kept: null stores (-fno-delete-null-pointer-checks),
 * endless loops (-fno-finite-loops); see inst_faults.c. */
static const char *const clang_flags[] = {
    "-c", "-emit-llvm", "-gline-tables-only", "-O0", "-Xclang", "-disable-O0-optnone",
    "-ftrivial-auto-var-init=zero", "-fno-delete-null-pointer-checks", "-fno-finite-loops",
    "-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang", NULL};

const char *const *build_clang_flags(void) { return clang_flags; }

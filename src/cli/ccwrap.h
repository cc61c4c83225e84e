/*
 * ccwrap.h - ctestgen-cc, the compiler wrapper for a project's own build
 * (ccwrap.c says what it does).
 */
#ifndef CTG_CCWRAP_H
#define CTG_CCWRAP_H

/* The wrapper's main: runs the real compiler on argv[1 ..] and records
 * what it compiled; the real compiler's exit code. */
int ccwrap_main(int argc, char **argv);

#endif

/*
 * ccwrap_main.c - the ctestgen-cc executable (ccwrap.h).
 */
#include "ccwrap.h"

int main(int argc, char **argv) { return ccwrap_main(argc, argv); }

/* minilib - a small run-length decoder with its own Makefile and CMake
 * build, the project of ctestgen's end-to-end tests of real builds
 * (t0122, t0123).  Format: 'M' 'L' FLAGS, then (count, byte) pairs. */
#ifndef MINILIB_H
#define MINILIB_H
#include <stddef.h>

#define ML_FLAG_CHECK 0x01 /* FLAGS >> 1: the low 7 bits of the bytes' sum */

/* Decodes in[0 .. n) into a new buffer *out of *out_len bytes (free it).
 * 0 on success, -1 on a malformed input. */
int ml_decode(const unsigned char *in, size_t n, unsigned char **out, size_t *out_len);
/* A score of the decoded bytes (their root mean square). */
double ml_score(const unsigned char *buf, size_t n);
#endif

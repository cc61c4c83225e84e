/*
 * prog.h - what a test program needs to stand in for an instrumented
 * program: the hook prototypes of rt_protocol.h, the __ctg_n_* constants and
 * a helper that writes results to the file named by $CTG_TEST_OUT (stdout is
 * /dev/null under the executor).
 *
 * A test program defines __ctg_user_main instead of main (as the
 * instrumenter renames it), calls the hooks and increments __ctg_cov_ptr
 * itself, and is linked with build/rt/libctg_rt{64,32}.a (CMakeLists.txt,
 * "test programs").
 */
#ifndef CTG_TEST_PROG_H
#define CTG_TEST_PROG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "rt_protocol.h"

#define PROG_COUNTS(edges, cmps, errors)                                                          \
    const uint32_t __ctg_n_edges = (edges), __ctg_n_cmp = (cmps), __ctg_n_errors = (errors)

extern uint8_t *__ctg_cov_ptr;
void __ctg_cmp(uint32_t base, uint32_t pred, uint64_t a, uint64_t b, uint32_t bits, uint32_t site);
void __ctg_fcmp(uint32_t base, uint32_t pred, double a, double b, uint32_t site);
void __ctg_br(uint32_t base, uint32_t cond);
void __ctg_switch(uint32_t base, uint64_t v, uint32_t ncases, const uint64_t *cases, uint32_t bits);
void __ctg_error(uint32_t site);
int __ctg_strcmp(uint32_t site, const char *a, const char *b);
int __ctg_strncmp(uint32_t site, const char *a, const char *b, size_t n);
int __ctg_memcmp(uint32_t site, const void *a, const void *b, size_t n);
void __ctg_cmp_str(uint32_t base, uint32_t pred, int64_t result, int64_t rhs, uint32_t str_site);
pid_t __ctg_fork(void);
void *__ctg_malloc(size_t n);
void *__ctg_calloc(size_t count, size_t size);
void *__ctg_realloc(void *p, size_t n);

_Bool __VERIFIER_nondet_bool(void);
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
unsigned int __VERIFIER_nondet_unsigned(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
float __VERIFIER_nondet_float(void);
double __VERIFIER_nondet_double(void);
void *__VERIFIER_nondet_pointer(void);
size_t __VERIFIER_nondet_size_t(void);
long long __VERIFIER_nondet_loff_t(void);
unsigned long long __VERIFIER_nondet_sector_t(void);
unsigned int __VERIFIER_nondet_u32(void);
unsigned short __VERIFIER_nondet_u16(void);
unsigned char __VERIFIER_nondet_u8(void);
void __VERIFIER_assume(int cond);
void __VERIFIER_error(void);

int __ctg_user_main(int argc, char **argv, char **envp);

/* Appends a formatted line to $CTG_TEST_OUT (nothing when unset). */
static inline void prog_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void prog_out(const char *fmt, ...)
{
    const char *path = getenv("CTG_TEST_OUT");
    if (!path)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

#endif

/* Weak Test-Comp functions for ctestgen's helper programs (the Korat and
 * filter helpers link with them; src/search/bounded/kharness.c writes this
 * file as it is). */
#include <stdlib.h>
#define W __attribute__((weak))
W _Bool __VERIFIER_nondet_bool(void) { return 0; }
W char __VERIFIER_nondet_char(void) { return 0; }
W unsigned char __VERIFIER_nondet_uchar(void) { return 0; }
W short __VERIFIER_nondet_short(void) { return 0; }
W unsigned short __VERIFIER_nondet_ushort(void) { return 0; }
W int __VERIFIER_nondet_int(void) { return 0; }
W unsigned int __VERIFIER_nondet_uint(void) { return 0; }
W long __VERIFIER_nondet_long(void) { return 0; }
W unsigned long __VERIFIER_nondet_ulong(void) { return 0; }
W long long __VERIFIER_nondet_longlong(void) { return 0; }
W unsigned long long __VERIFIER_nondet_ulonglong(void) { return 0; }
W float __VERIFIER_nondet_float(void) { return 0; }
W double __VERIFIER_nondet_double(void) { return 0; }
W void * __VERIFIER_nondet_pointer(void) { return 0; }
W unsigned long __VERIFIER_nondet_size_t(void) { return 0; }
W void __VERIFIER_assume(int c) { if (!c) exit(0); }
W void __VERIFIER_error(void) { abort(); }
W void reach_error(void) { abort(); }

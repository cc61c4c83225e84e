/*
 * libclang.c - opens libclang-14 with dlopen and looks its functions up
 * (libclang.h says why it is not linked).
 */
#include "libclang.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifndef CTG_LIBCLANG_PATH
#define CTG_LIBCLANG_PATH "libclang-14.so.1"
#endif

static ctg_libclang lc;
static char lc_what[512]; /* what went wrong at the first load, or "" */
static pthread_once_t lc_once = PTHREAD_ONCE_INIT;

static void lc_open(void)
{
    /* RTLD_LOCAL: its libLLVM-14.so stays out of the global scope */
    void *h = dlopen(CTG_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *d = dlerror();
        snprintf(lc_what, sizeof lc_what, "%s", d && *d ? d : CTG_LIBCLANG_PATH);
        return;
    }
#define CTG_LIBCLANG_SYM(f)                                              \
    if (!lc_what[0] && !(*(void **)&lc.f = dlsym(h, #f)))                \
        snprintf(lc_what, sizeof lc_what, "%s: no function %s", CTG_LIBCLANG_PATH, #f);
    CTG_LIBCLANG_FUNCS(CTG_LIBCLANG_SYM)
#undef CTG_LIBCLANG_SYM
}

const ctg_libclang *libclang_load(ctg_err *e)
{
    pthread_once(&lc_once, lc_open);
    if (lc_what[0]) {
        err_set(e, "libclang could not be loaded (%s); install Debian's libclang1-14", lc_what);
        return NULL;
    }
    return &lc;
}

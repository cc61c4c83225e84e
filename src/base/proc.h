/*
 * proc.h - running helper programs (clang, gcc, gcov, the replay binary).
 *
 * Not used for the program under test on the hot path: that is src/exec's
 * fork server.  This is the one place that spawns tools.
 */
#ifndef CTG_PROC_H
#define CTG_PROC_H

#include <stdbool.h>

#include "err.h"
#include "sbuf.h"

typedef struct proc_opts {
    const char *cwd;        /* NULL: current directory                          */
    const char *stdin_path; /* NULL: /dev/null                                  */
    sbuf *out;              /* captured stdout (capped); NULL: /dev/null        */
    sbuf *err;              /* captured stderr (capped); NULL: /dev/null        */
    double timeout_s;       /* 0: none; the process group is killed on expiry   */
    char *const *env_add;   /* extra NAME=VALUE entries, NULL-terminated, or NULL */
    long mem_limit_mb;      /* RLIMIT_AS of the child; 0: none                  */
    long max_procs;         /* RLIMIT_NPROC of the child (not enforced for root);
                               0: none                                          */
    bool contain;           /* the program under test: once the child ended, its
                               process group is killed and every process that it
                               left behind (reparented to us, a subreaper) too.
                               Only where the caller has no other children.     */
    bool contain_group;     /* the program under test while the caller has other
                               children (a search's fork servers): once the
                               child ended, its process group is killed; what
                               left the group is not looked for               */
} proc_opts;

typedef struct proc_result {
    bool exited;    /* true: normal exit with `code`; false: killed by `signal` */
    int code;
    int signal;
    bool timed_out;
} proc_result;

/* Runs argv[0] (searched in PATH) to completion.  Returns false with e set
 * only when the program could not be started; a non-zero exit is reported in
 * *r, not as a failure. */
bool proc_run(char *const argv[], const proc_opts *o, proc_result *r, ctg_err *e);
/* A child of this process that a contained run's clean-up leaves alone (the
 * detached background build of prog.sym); 0: none. */
void proc_spare(int pid);

/* Shell-quoted command line for messages and reproduce commands (ctg_free). */
char *proc_cmdline(char *const argv[]);

#endif

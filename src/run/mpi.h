/*
 * mpi.h - `mpirun -np N ctestgen run PROG.c --mpi -o OUT`: one --jobs
 * worker per MPI rank (see mpi.c).
 */
#ifndef CTG_MPI_H
#define CTG_MPI_H

#include <stdbool.h>

#include "../compile/build.h"
#include "../opt/options.h"
#include "../search/engine.h"

/* Runs this rank's worker; rank 0 also relays the tests and merges every
 * rank's results into OUT (s: the whole run; other ranks fill s->execs
 * only and print nothing).  *is_root: whether this is rank 0.  False with
 * e set (a binary built without MPI says so). */
bool mpi_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
             engine_summary *s, bool *is_root, ctg_err *e);

#endif

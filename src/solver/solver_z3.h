/*
 * solver_z3.h - what the Z3 back end (solver_z3.c) shares with the other
 * Z3 user of src/solver, the real relaxation (solver_fp.c).  Not for use
 * outside src/solver.
 */
#ifndef CTG_SOLVER_Z3_H
#define CTG_SOLVER_Z3_H

#include <stdint.h>

#include <z3.h>

/* Takes a reference on the new solver s (NULL: returns NULL) and gives it
 * the timeout (0: none). */
Z3_solver sz3_prepare(Z3_context z, Z3_solver s, uint32_t timeout_ms);

#endif

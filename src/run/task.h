/*
 * task.h - Test-Comp tasks as the competition gives them: an sv-benchmarks
 * task definition (format version 2.0, read with libyaml) and the property
 * files of the two Test-Comp goals.
 *
 *   format_version: '2.0'
 *   input_files: 'prog.c'            (one file, or a list of one)
 *   properties:
 *     - property_file: ../properties/coverage-branches.prp
 *     - property_file: ../properties/coverage-error-call.prp
 *   options:
 *     language: C
 *     data_model: ILP32              (ILP32 -> 32-bit build, LP64 -> 64-bit)
 *
 * A property is named by its file's base name (coverage-branches,
 * coverage-error-call); when the .prp file exists its text decides
 * (COVER EDGES(@DECISIONEDGE) or COVER EDGES(@CALL(reach_error))), so a
 * renamed file still works.  The names (PROP_BRANCHES, PROP_ERROR_CALL)
 * are in options.h, beside the option they are values of.
 */
#ifndef CTG_TASK_H
#define CTG_TASK_H

#include <stdbool.h>

#include "../base/err.h"
#include "../opt/options.h"

typedef struct ctg_task {
    char *program;    /* input file, relative to the .yml's directory */
    int arch_bits;    /* 32 (ILP32), 64 (LP64), 0 when not given     */
    char **props;     /* property names, in file order                */
    int n_props;
    char *language;   /* "C" or as given; NULL when not given         */
} ctg_task;

/* Reads a task definition.  False with a one-line e naming the file, the
 * problem and the fix (unreadable, not YAML, not version 2.0, no or several
 * input files). */
bool task_load(const char *yml, ctg_task *t, ctg_err *e);
void task_release(ctg_task *t);

/* The property a --property argument names: PROP_BRANCHES or
 * PROP_ERROR_CALL for those names, or for a .prp file whose text (or, when
 * it does not exist, base name) is one of them.  NULL with e set otherwise,
 * naming what was given. */
const char *task_property(const char *arg, ctg_err *e);

/* The Test-Comp specification text of a property (metadata.xml). */
const char *task_spec(const char *property);

/* After option parsing: when the first source of run/build is a .yml task,
 * takes the program, the data model (unless --arch/-m32/-m64 was given) and
 * the property (unless --property was given: coverage-branches when the
 * task lists it, else coverage-error-call) from it; resolves --property;
 * Cover-Error runs stop at the first error unless --keep-going; a task
 * run writes test-suite.zip.  Sets the default architecture (64) when none
 * was chosen.  False with e set. */
bool task_apply(ctg_options *o, ctg_err *e);

#endif

/*
 * commands.h - the subcommands of ctestgen.  Each returns the exit code
 * (0 done, 1 error, 2 usage) and fills e with the one-line reason.
 */
#ifndef CTG_COMMANDS_H
#define CTG_COMMANDS_H

#include "../base/err.h"
#include "../opt/options.h"

int cmd_run(const ctg_options *o, ctg_err *e);
int cmd_build(const ctg_options *o, ctg_err *e);
int cmd_replay(const ctg_options *o, ctg_err *e);
/* Prints what the host can do, one capability a line ("exec32  no: WHY");
 * exit code 0 when 64-bit runs can be built, else 1. */
int cmd_doctor(const ctg_options *o, ctg_err *e);
/* ctestgen export OUT --c FILE [PROG.c ...] (src/report/export.h). */
int cmd_export(const ctg_options *o, ctg_err *e);
/* ctestgen report OUT [PROG.c ...] (src/report/htmlreport.h). */
int cmd_report(const ctg_options *o, ctg_err *e);
/* ctestgen compare RUN_DIR... [--by KEY] [--json] (src/report/compare.h). */
int cmd_compare(const ctg_options *o, ctg_err *e);
/* ctestgen learn PROG.c [-o weights.txt] (src/cli/learn.c). */
int cmd_learn(const ctg_options *o, ctg_err *e);

#endif

/*
 * commands.h - ctestgen's subcommands and exit codes: the one header of
 * the command line's own (main.c dispatches; each command family has a
 * file: cmd_run.c run and build, cmd_outdir.c the commands that read an
 * output directory - replay, report, export, compare -, cmd_doctor.c,
 * learn.c).
 */
#ifndef CTG_COMMANDS_H
#define CTG_COMMANDS_H

#include "../base/err.h"
#include "../base/interrupt.h"
#include "../opt/options.h"
#include "../run/run.h"

#define EXIT_OK 0
#define EXIT_ERR 1   /* an error: e names the file, the problem and the fix  */
#define EXIT_USAGE 2 /* a usage error                                        */
#define EXIT_WRITE 3 /* the output could not be completely written (disk)     */
/* INTERRUPT_EXIT (130, base/interrupt.h): interrupted, what was found is written */

/* The exit code of a run layer's status. */
int cli_exit(run_status st);

/* Each returns the exit code; e holds the one-line message when it is not
 * 0 (main prints it). */
int cmd_run(const ctg_options *o, ctg_err *e);
/* ctestgen build PROG.c ...: the binaries, where they are, the stages. */
int cmd_build(const ctg_options *o, ctg_err *e);
/* ctestgen replay OUT [PROG.c ...] | --corpus PATH... PROG.c ... */
int cmd_replay(const ctg_options *o, ctg_err *e);
/* Prints what the host can do and the tools ctestgen uses. */
int cmd_doctor(const ctg_options *o, ctg_err *e);
/* ctestgen export OUT --c FILE [PROG.c ...] (src/report/export.h). */
int cmd_export(const ctg_options *o, ctg_err *e);
/* ctestgen report OUT [PROG.c ...] (src/report/htmlreport.h). */
int cmd_report(const ctg_options *o, ctg_err *e);
/* ctestgen compare RUN_DIR... [--by KEY] [--json] (src/report/compare.h). */
int cmd_compare(const ctg_options *o, ctg_err *e);
/* ctestgen learn PROG.c [-o weights.txt] (learn.c). */
int cmd_learn(const ctg_options *o, ctg_err *e);

#endif

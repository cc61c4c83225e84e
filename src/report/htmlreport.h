/*
 * htmlreport.h - `ctestgen report OUT [PROG.c ...]` and `run --report`:
 * OUT/report/index.html, one self-contained page (inline CSS and SVG, no
 * script, no network):
 *   - summary: program, strategy, budget, executions, tests, errors,
 *     crashes, coverage by the engine's counters and by gcov's replay;
 *   - coverage over time: the stats.json series as an SVG plot;
 *   - for auto: slices, executions and new goals per member strategy;
 *   - crashes, each with its one-line reproduce command;
 *   - the source, line by line: gcov's count, branches taken / total and
 *     the first test that ran the line (replay with line_detail).
 * The page's elements carry classes a browser test can find:
 * tr.line.hit / tr.line.miss / tr.line.none, svg#cov-plot polyline.
 */
#ifndef CTG_HTMLREPORT_H
#define CTG_HTMLREPORT_H

#include <stdbool.h>

#include "../base/err.h"
#include "replay.h"

/* Replays o->out_dir's suite (o->line_detail is forced on) and writes
 * <out_dir>/report/index.html; *path (may be NULL) gets its path
 * (ctg_free).  False with e set (one line naming the file and the fix). */
bool html_report(const replay_opts *o, char **path, ctg_err *e);

#endif

/*
 * htmlreport.c - the HTML report (see htmlreport.h).
 */
#include "htmlreport.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "stats.h"

#define PLOT_W 640
#define PLOT_H 220
#define PLOT_M 40 /* margin for the axes' labels */

/* Text with &, <, >, " escaped. */
static void esc(sbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': sbuf_puts(b, "&amp;"); break;
        case '<': sbuf_puts(b, "&lt;"); break;
        case '>': sbuf_puts(b, "&gt;"); break;
        case '"': sbuf_puts(b, "&quot;"); break;
        default: sbuf_putc(b, s[i]);
        }
    }
}

static void esc0(sbuf *b, const char *s) { esc(b, s ? s : "", s ? strlen(s) : 0); }

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; }

static const char *const css =
    "body{font:14px/1.4 sans-serif;margin:24px;color:#222}"
    "h1{font-size:22px}h2{font-size:17px;margin-top:28px}"
    "table.kv td,table.kv th,table.grid td,table.grid th{padding:3px 10px;text-align:left}"
    "table.grid{border-collapse:collapse}table.grid th{border-bottom:1px solid #999}"
    "table.src{border-collapse:collapse;font:12px/1.35 monospace}"
    "table.src td{padding:0 6px;white-space:pre;vertical-align:top}"
    "tr.hit td.code{background:#e3f6e3}tr.miss td.code{background:#fbe1e1}"
    "tr.part td.code{background:#fff4cc}tr.dead td.code{background:#e4e4e4;color:#555}"
    "td.why{color:#735;white-space:normal;font-family:sans-serif;font-size:11px;min-width:320px}"
    "td.n,td.c,td.b{color:#666;text-align:right}td.t{color:#447}"
    "code.cmd{display:block;background:#f4f4f4;padding:4px;white-space:pre-wrap}"
    "svg text{font:11px sans-serif;fill:#444}";

/* ==== parts of the page ====================================================== */

static void summary(sbuf *b, const stats_t *st, const replay_result *rr, const char *program)
{
    const char *budget = stats_get_info(st, "budget");
    double execs = stats_get(st, "execs"), secs = stats_get(st, "seconds");
    double ec = stats_get(st, "edges.covered"), et = stats_get(st, "edges.total");
    sbuf_puts(b, "<h2>Summary</h2>\n<table class=\"kv\" id=\"summary\">\n");
    sbuf_puts(b, "<tr><th>program</th><td>");
    esc0(b, program);
    sbuf_puts(b, "</td></tr>\n<tr><th>strategy</th><td>");
    esc0(b, stats_get_info(st, "strategy"));
    const char *search = stats_get_info(st, "search");
    if (search) {
        sbuf_puts(b, " (concolic search ");
        esc0(b, search);
        sbuf_puts(b, ")");
    }
    sbuf_puts(b, "</td></tr>\n<tr><th>budget</th><td>");
    esc0(b, budget ? budget : "?");
    sbuf_printf(b, "</td></tr>\n<tr><th>executions</th><td>%.0f in %.1f s</td></tr>\n", execs, secs);
    sbuf_printf(b, "<tr><th>tests</th><td>%.0f kept (%u replayed)</td></tr>\n",
                stats_get(st, "tests"), (unsigned)rr->n_tests);
    sbuf_printf(b, "<tr><th>errors</th><td>%.0f of %.0f reached by the engine; gcov replay: %s</td></tr>\n",
                stats_get(st, "errors.reached"), stats_get(st, "errors.total"),
                rr->error_reached ? "reached" : "not reached");
    sbuf_printf(b, "<tr><th>crashes</th><td>%.0f recorded, %zu named bug%s (one per crash file)"
                   "</td></tr>\n",
                stats_get(st, "crashes"), stats_n_bugs(st), stats_n_bugs(st) == 1 ? "" : "s");
    sbuf_printf(b, "<tr><th>coverage (engine)</th><td>%.0f/%.0f LLVM branch edges (%.1f%%)</td></tr>\n",
                ec, et, pct(ec, et));
    sbuf_printf(b, "<tr><th>coverage (gcov replay)</th><td id=\"gcov\">branches %u/%u (%.1f%%), "
                   "lines %u/%u (%.1f%%)</td></tr>\n</table>\n",
                rr->branches_covered, rr->branches, pct(rr->branches_covered, rr->branches),
                rr->lines_covered, rr->lines, pct(rr->lines_covered, rr->lines));
}

/* Edges covered over time, as a polyline in a PLOT_W x PLOT_H box. */
static void plot(sbuf *b, const stats_t *st)
{
    size_t n = stats_n_samples(st);
    const stats_sample *x = stats_samples(st);
    double tmax = n ? x[n - 1].t : 0, total = stats_get(st, "edges.total");
    if (tmax <= 0)
        tmax = 1;
    if (total <= 0)
        total = 1;
    int w = PLOT_W - 2 * PLOT_M, h = PLOT_H - 2 * PLOT_M;
    sbuf_puts(b, "<h2>Coverage over time</h2>\n");
    sbuf_printf(b, "<svg id=\"cov-plot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                   "xmlns=\"http://www.w3.org/2000/svg\">\n",
                PLOT_W, PLOT_H, PLOT_W, PLOT_H);
    sbuf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                   "stroke=\"#999\"/>\n",
                PLOT_M, PLOT_M, w, h);
    sbuf_printf(b, "<text x=\"%d\" y=\"%d\">100%%</text><text x=\"%d\" y=\"%d\">0</text>\n", 4,
                PLOT_M + 4, 4, PLOT_M + h);
    sbuf_printf(b, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\">%.1f s</text>\n",
                PLOT_M, PLOT_M + h + 16, PLOT_M + w - 30, PLOT_M + h + 16, tmax);
    sbuf_printf(b, "<text x=\"%d\" y=\"%d\">branch edges covered (engine)</text>\n", PLOT_M,
                PLOT_M - 8);
    sbuf_puts(b, "<polyline fill=\"none\" stroke=\"#2a7\" stroke-width=\"2\" points=\"");
    for (size_t i = 0; i < n; i++) {
        double px = PLOT_M + w * (x[i].t / tmax), py = PLOT_M + h - h * (x[i].edges / total);
        if (i) /* a step: coverage holds until the next sample */
            sbuf_printf(b, "%.1f,%.1f ", px, PLOT_M + h - h * (x[i - 1].edges / total));
        sbuf_printf(b, "%.1f,%.1f ", px, py);
    }
    sbuf_puts(b, "\"/>\n</svg>\n");
}

/* auto's members as stats.json names them (auto.slices.NAME), with the
 * totals of their executions and new goals. */
typedef struct member_list {
    const stats_t *st;
    char names[16][32];
    int n;
    double execs, goals;
} member_list;

static void add_member(void *user, const char *name, double value)
{
    member_list *m = user;
    char k[64];
    const char *member = name + strlen("auto.slices.");
    if (value <= 0 || m->n == 16)
        return;
    snprintf(m->names[m->n++], sizeof m->names[0], "%s", member);
    snprintf(k, sizeof k, "auto.execs.%s", member);
    m->execs += stats_get(m->st, k);
    snprintf(k, sizeof k, "auto.goals.%s", member);
    m->goals += stats_get(m->st, k);
}

/* auto's members: slices, executions and new goals each, from stats.json. */
static void members(sbuf *b, const stats_t *st)
{
    const char *strat = stats_get_info(st, "strategy");
    if (!strat || strcmp(strat, "auto"))
        return;
    member_list m = {.st = st};
    stats_each(st, "auto.slices.", add_member, &m);
    sbuf_puts(b, "<h2>Member strategies (auto)</h2>\n<table class=\"grid\" id=\"members\">\n"
                 "<tr><th>member</th><th>slices</th><th>executions</th><th>new goals</th></tr>\n");
    for (int i = 0; i < m.n; i++) {
        char k[64];
        snprintf(k, sizeof k, "auto.slices.%s", m.names[i]);
        double sl = stats_get(st, k);
        snprintf(k, sizeof k, "auto.execs.%s", m.names[i]);
        double ex = stats_get(st, k);
        snprintf(k, sizeof k, "auto.goals.%s", m.names[i]);
        double go = stats_get(st, k);
        sbuf_printf(b, "<tr><td>%s</td><td>%.0f</td><td>%.0f (%.0f%%)</td><td>%.0f (%.0f%%)</td></tr>\n",
                    m.names[i], sl, ex, pct(ex, m.execs), go, pct(go, m.goals));
    }
    sbuf_puts(b, "</table>\n");
}

/* The records in OUT/crashes of reached errors (errors: error-NNNNN) or of
 * everything else (crashes, hangs, ...), as a list with their description
 * lines and reproduce commands. */
static void records(sbuf *b, char **files, size_t n, bool errors, const char *title,
                    const char *id)
{
    sbuf_printf(b, "<h2>%s</h2>\n<ul id=\"%s\">\n", title, id);
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(files[i]);
        const char *base = strrchr(files[i], '/');
        base = base ? base + 1 : files[i];
        bool is_err = !strncmp(base, "error-", 6);
        char *text = NULL;
        ctg_err e = {{0}};
        if (is_err != errors || l <= 4 || strcmp(files[i] + l - 4, ".txt") ||
            !fs_read(files[i], &text, NULL, &e))
            continue;
        char *nl = strchr(text, '\n');
        size_t tl = strlen(text);
        while (tl > 0 && text[tl - 1] == '\n')
            text[--tl] = 0;
        const char *cmd = strrchr(text, '\n'); /* the last line */
        cmd = cmd ? cmd + 1 : "";
        const char *bug = strstr(text, "\nbug: ");
        sbuf_puts(b, "<li>");
        if (bug) { /* what triage made of it first, then the run */
            sbuf_puts(b, "<b class=\"bug\">");
            esc(b, bug + 6, strcspn(bug + 6, "\n"));
            sbuf_puts(b, "</b><br>");
        }
        esc(b, text, nl ? (size_t)(nl - text) : strlen(text));
        sbuf_puts(b, "<code class=\"cmd\">");
        esc(b, cmd, strcspn(cmd, "\n"));
        sbuf_puts(b, "</code></li>\n");
        shown++;
        ctg_free(text);
    }
    if (!shown)
        sbuf_puts(b, "<li>none</li>\n");
    sbuf_puts(b, "</ul>\n");
}

/* OUT/crashes: reached errors, then crashes (and hangs, ...). */
static void crashes(sbuf *b, const char *out)
{
    char *dir = fs_join(out, "crashes");
    char **files = NULL;
    size_t n = 0;
    ctg_err e = {{0}};
    if (!dir || !fs_exists(dir) || !fs_list_files(dir, &files, &n, &e))
        n = 0;
    records(b, files, n, true, "Errors reached", "errors");
    records(b, files, n, false, "Crashes", "crashes");
    for (size_t i = 0; i < n; i++)
        ctg_free(files[i]);
    ctg_free(files);
    ctg_free(dir);
}

/* The goals of final.goals in file path, by line: why[line] gets the words
 * of each uncovered goal there, dead[line] whether each of them is proven
 * unreachable (both n_line long, the caller frees them and the strings). */
static void goal_words(const stats_t *st, const char *path, unsigned n_line, char **why, bool *dead)
{
    const json_object *goals = stats_goals(st);
    char *real = fs_realpath(path, NULL);
    const char *seen = NULL; /* the goals' files repeat: resolve each run of them once */
    bool same = false;
    for (size_t i = 0; goals && real && i < json_object_array_length(goals); i++) {
        json_object *g = json_object_array_get_idx(goals, i), *v;
        const char *status = json_object_object_get_ex(g, "status", &v) ? json_object_get_string(v) : "";
        const char *file = json_object_object_get_ex(g, "file", &v) ? json_object_get_string(v) : "";
        int line = json_object_object_get_ex(g, "line", &v) ? json_object_get_int(v) : 0;
        if (!strcmp(status, "covered") || line <= 0 || (unsigned)line >= n_line)
            continue;
        if (!seen || strcmp(seen, file)) {
            char *gr = fs_realpath(file, NULL);
            same = gr && !strcmp(gr, real);
            ctg_free(gr);
            seen = file;
        }
        if (!same)
            continue;
        bool unreach = !strcmp(status, "unreachable");
        const char *goal = json_object_object_get_ex(g, "goal", &v) ? json_object_get_string(v) : "";
        const char *what = json_object_object_get_ex(g, unreach ? "method" : "why", &v)
                               ? json_object_get_string(v) : "";
        sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s%s %s: %s", why[line] ? why[line] : "", why[line] ? "; " : "", goal,
                    unreach ? "unreachable" : "not reached");
        if (what && *what)
            sbuf_printf(&b, " (%s)", what);
        ctg_free(why[line]);
        why[line] = sbuf_take(&b);
        dead[line] = (why[line] && strstr(why[line], "not reached") == NULL);
    }
    ctg_free(real);
}

/* One source line's row: gcov's figures, the goals' words, the code. */
static void source_line(sbuf *b, const replay_result *rr, const replay_line *l, unsigned no,
                        const char *why, bool dead, const char *p, size_t n)
{
    const char *cls = !l || !l->code ? "none"
                      : !l->count    ? (dead ? "dead" : "miss")
                      : l->branches_covered < l->branches ? "part"
                                                          : "hit";
    sbuf_printf(b, "<tr class=\"line %s\" id=\"L%u\"><td class=\"n\">%u</td><td class=\"c\">", cls,
                no, no);
    if (l && l->code)
        sbuf_printf(b, "%llu", l->count);
    sbuf_puts(b, "</td><td class=\"b\">");
    if (l && l->branches)
        sbuf_printf(b, "%u/%u", l->branches_covered, l->branches);
    sbuf_puts(b, "</td><td class=\"t\">");
    if (l && l->first_test >= 0 && (size_t)l->first_test < rr->n_tests)
        esc0(b, rr->tests[l->first_test].name);
    sbuf_puts(b, "</td><td class=\"code\">");
    esc(b, p, n);
    sbuf_puts(b, "</td><td class=\"why\">");
    esc0(b, why);
    sbuf_puts(b, "</td></tr>\n");
}

/* One source file, line by line with gcov's figures and the goals' status. */
static void source(sbuf *b, const stats_t *st, const replay_result *rr, const replay_file *f)
{
    char *text = NULL;
    size_t len = 0;
    ctg_err e = {{0}};
    if (!fs_read(f->path, &text, &len, &e))
        return; /* a system header gcov named, or moved since: no listing */
    unsigned lines = 2;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    char **why = ctg_calloc(lines, sizeof *why);
    bool *dead = ctg_calloc(lines, sizeof *dead);
    if (why && dead)
        goal_words(st, f->path, lines, why, dead);
    sbuf_puts(b, "<h3>");
    esc0(b, f->path);
    sbuf_printf(b, "</h3>\n<p>branches %u/%u, lines %u/%u</p>\n<table class=\"src\">\n",
                f->branches_covered, f->branches, f->lines_covered, f->lines);
    sbuf_puts(b, "<tr><th>line</th><th>count</th><th>branches</th><th>first test</th><th></th>"
                 "<th>goals not covered</th></tr>\n");
    const char *p = text;
    for (unsigned no = 1; p < text + len; no++) {
        const char *end = memchr(p, '\n', (size_t)(text + len - p));
        size_t n = end ? (size_t)(end - p) : (size_t)(text + len - p);
        const replay_line *l = no < f->n_line ? &f->line[no] : NULL;
        source_line(b, rr, l, no, why && no < lines ? why[no] : NULL, dead && no < lines && dead[no],
                    p, n);
        p = end ? end + 1 : text + len;
    }
    sbuf_puts(b, "</table>\n");
    for (unsigned i = 0; why && i < lines; i++)
        ctg_free(why[i]);
    ctg_free(why);
    ctg_free(dead);
    ctg_free(text);
}

/* ==== the page ================================================================= */

bool html_report(const replay_opts *ro, char **path, ctg_err *e)
{
    if (path)
        *path = NULL;
    char *sp = fs_join(ro->out_dir, "stats.json");
    if (!sp)
        return err_set(e, "out of memory");
    stats_t *st = stats_load(sp, e);
    ctg_free(sp);
    if (!st)
        return false;
    replay_opts o = *ro;
    o.line_detail = true;
    replay_result rr;
    bool ok = replay_suite(&o, &rr, e);
    char *dir = fs_join(ro->out_dir, "report"), *file = dir ? fs_join(dir, "index.html") : NULL;
    sbuf b = SBUF_INIT;
    if (ok) {
        const char *program = stats_get_info(st, "program");
        sbuf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<title>ctestgen report: ");
        esc0(&b, program);
        sbuf_printf(&b, "</title><style>%s</style></head><body>\n<h1>ctestgen report: ", css);
        esc0(&b, program);
        sbuf_puts(&b, "</h1>\n");
        summary(&b, st, &rr, program);
        plot(&b, st);
        members(&b, st);
        crashes(&b, ro->out_dir);
        sbuf_puts(&b, "<h2>Source</h2>\n<p>Green: run and every branch taken; yellow: run, a "
                      "branch not taken; red: not run; grey: not run, and proven unreachable.  Counts "
                      "are gcov's, from replaying the suite under gcc --coverage; the last column "
                      "gives the engine's goals on the line that no test covered: proven "
                      "unreachable (how), or not reached (the test that came closest).</p>\n");
        for (size_t i = 0; i < rr.n_files; i++)
            source(&b, st, &rr, &rr.files[i]);
        sbuf_puts(&b, "</body></html>\n");
        ok = dir && file && sbuf_ok(&b) ? true : err_set(e, "out of memory writing the report");
    }
    ok = ok && fs_mkdir_p(dir, e) && fs_write_atomic(file, b.data, b.len, e);
    if (ok && path) {
        *path = file;
        file = NULL;
    }
    sbuf_release(&b);
    ctg_free(file);
    ctg_free(dir);
    replay_result_release(&rr);
    stats_free(st);
    return ok;
}

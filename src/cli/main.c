/*
 * main.c - the ctestgen command: parses the options, dispatches to the
 * subcommand, prints the one-line error of whatever failed and maps it to
 * the exit code (0 done, 1 error, 2 usage).  The only place that exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/ccflags.h"
#include "../base/err.h"
#include "../opt/options.h"
#include "../search/strategy.h"
#include "commands.h"
#include "../run/project.h"
#include "../run/task.h"



static const struct {
    const char *name;
    int (*run)(const ctg_options *o, ctg_err *e);
} command_table[] = {
    {"run", cmd_run},
    {"build", cmd_build},
    {"replay", cmd_replay},
    {"doctor", cmd_doctor},
    {"compare", cmd_compare},
    {"report", cmd_report},
    {"export", cmd_export},
    {"learn", cmd_learn},
};

/* Index of the first positional argument that names the program's files:
 * after OUT for the commands that read an output directory. */
static int project_first(const ctg_options *o)
{
    const char *c = o->command ? o->command : "";
    bool out_first = (!strcmp(c, "replay") && o->replay.corpus.n == 0) || !strcmp(c, "report") ||
                     !strcmp(c, "export");
    return out_first ? 1 : 0;
}

/* One note line for the compiler flags that were given and ignored, each
 * reason once: "ctestgen: note: -O2 ignored: the engine picks ...". */
static void note_ignored(const ctg_options *o)
{
    const str_list *l = &o->build.ignored;
    if (o->ui.quiet || l->n == 0)
        return;
    fprintf(stderr, "ctestgen: note:");
    for (int i = 0; i < l->n; i++) {
        const char *why = ccf_ignore_reason(l->items[i]);
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = ccf_ignore_reason(l->items[k]) == why;
        if (seen)
            continue;
        fprintf(stderr, "%s", i ? ";" : "");
        for (int k = i; k < l->n; k++)
            if (ccf_ignore_reason(l->items[k]) == why)
                fprintf(stderr, " %s", l->items[k]);
        fprintf(stderr, " ignored: %s", why);
    }
    fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
    ctg_options o;
    ctg_err e = {{0}};
    strategy_register_options();
    options_defaults(&o);
    if (!options_parse(&o, argc, argv, &e)) {
        fprintf(stderr, "ctestgen: %s\n", e.msg);
        options_release(&o);
        return EXIT_USAGE;
    }
    int rc = EXIT_USAGE;
    if (!o.ui.help && !o.ui.version && !o.ui.man &&
        (!task_apply(&o, &e) || !project_apply(&o, project_first(&o), &e))) {
        fprintf(stderr, "ctestgen: %s\n", e.msg);
        rc = 1;
    } else if (o.ui.man) {
        options_man(stdout);
        rc = 0;
    } else if (o.ui.help) {
        options_help(stdout);
        rc = 0;
    } else if (o.ui.version) {
        printf("ctestgen %s\n", CTG_VERSION);
        rc = 0;
    } else if (!o.command) {
        fprintf(stderr, "ctestgen: no command given; try 'ctestgen run prog.c' or --help\n");
    } else {
        note_ignored(&o);
        size_t n = sizeof command_table / sizeof command_table[0];
        size_t i = 0;
        while (i < n && strcmp(command_table[i].name, o.command))
            i++;
        if (i == n) {
            fprintf(stderr, "ctestgen: '%s' is not a command; see --help\n", o.command);
        } else {
            rc = command_table[i].run(&o, &e);
            if (rc != 0 && e.msg[0])
                fprintf(stderr, "ctestgen: %s\n", e.msg);
        }
    }
    options_release(&o);
    return rc;
}

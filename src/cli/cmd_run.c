/*
 * cmd_run.c - `ctestgen run` (the run layer, src/run/, does it) and
 * `ctestgen build` (only the binaries, and where they are).
 */
#include <stdio.h>

#include "../compile/build.h"
#include "commands.h"

int cli_exit(run_status st)
{
    static const int code[] = {[RUN_OK] = EXIT_OK, [RUN_FAILED] = EXIT_ERR,
                               [RUN_USAGE] = EXIT_USAGE, [RUN_INCOMPLETE] = EXIT_WRITE,
                               [RUN_INTERRUPTED] = INTERRUPT_EXIT};
    return (unsigned)st < sizeof code / sizeof code[0] ? code[st] : EXIT_ERR;
}

int cmd_run(const ctg_options *o, ctg_err *e) { return cli_exit(run_main(o, e)); }

/* One line of the build's stage times (what this call built). */
static void print_build_stages(FILE *f, const build_result *br)
{
    fprintf(f, "stages    compile %.2fs, passes %.2fs, prog.cov -O%d %.2fs (largest function %u",
            br->stage.compile, br->stage.passes, br->stage.cov_opt, br->stage.cov_codegen,
            br->stage.cov_largest);
    if (br->stage.cov_spared)
        fprintf(f, ", %u function%s not optimised", br->stage.cov_spared,
                br->stage.cov_spared == 1 ? "" : "s");
    fprintf(f, ")");
    if (br->stage.sym_passes > 0)
        fprintf(f, ", symbolic pass %.2fs, prog.sym -O%d %.2fs (%u)", br->stage.sym_passes,
                br->stage.sym_opt, br->stage.sym_codegen, br->stage.sym_largest);
    fprintf(f, "\n");
}

/* What build printed of the binaries it has. */
static void print_binaries(const build_result *br)
{
    printf("binary    %s%s\n", br->cov_bin, br->cached ? " (cached)" : "");
    if (br->sym_bin)
        printf("concolic  %s\n", br->sym_bin);
    if (br->san_bin)
        printf("sanitizer %s (%s)\n", br->san_bin,
               br->san_aligned ? "same edge ids: runs every input" : "re-runs inputs only");
    printf("database  %s\n", br->db_path);
    printf("branches  %u (%u edges), comparison sites %u, error sites %u\n", br->db->n_branches,
           br->db->n_edges, br->db->n_cmp, br->db->n_errors);
}

int cmd_build(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1) {
        err_set(e, "build: no program given; usage: ctestgen build PROG.c [MORE.c ...]");
        return EXIT_USAGE;
    }
    if (!run_sanitize_ok(o, e))
        return EXIT_USAGE;
    build_opts bo;
    run_build_opts(o, &bo);
    build_result br;
    if (!build_program(&bo, &br, e))
        return EXIT_ERR;
    if (br.warning && !o->ui.quiet)
        fprintf(stderr, "ctestgen: %s: warning: %s\n", o->positional.items[0], br.warning);
    print_binaries(&br);
    if (!br.cached)
        print_build_stages(stdout, &br);
    build_result_release(&br);
    return EXIT_OK;
}

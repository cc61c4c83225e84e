/*
 * strategies.c - the table of search strategies (one line each).
 */
#include <string.h>

#include "strategy.h"

extern const strategy strategy_random;
extern const strategy strategy_mio, strategy_mosa, strategy_dynamosa, strategy_wts;
extern const strategy strategy_concolic;
extern const strategy strategy_auto;
extern const strategy strategy_bounded;
extern const strategy strategy_fuzz;

const strategy *const ctg_strategies[] = {
    &strategy_random,
    &strategy_auto,
    &strategy_fuzz,
    &strategy_mio,
    &strategy_mosa,
    &strategy_dynamosa,
    &strategy_wts,
    &strategy_concolic,
    &strategy_bounded,
    NULL,
};

const strategy *strategy_find(const char *name)
{
    for (int i = 0; ctg_strategies[i]; i++)
        if (!strcmp(ctg_strategies[i]->name, name))
            return ctg_strategies[i];
    return NULL;
}

void strategy_register_options(void)
{
    static opt_group g[OPT_MAX_GROUPS];
    int n = 0;
    for (int i = 0; ctg_strategies[i] && n < OPT_MAX_GROUPS; i++, n++)
        g[n] = (opt_group){ctg_strategies[i]->name, ctg_strategies[i]->summary,
                           ctg_strategies[i]->options};
    options_set_groups(g, n);
}

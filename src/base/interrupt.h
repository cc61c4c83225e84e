/*
 * interrupt.h - Ctrl-C and kill: the first SIGINT/SIGTERM/SIGHUP asks the
 * run to stop after the current execution (everything found is written and
 * the summary says "interrupted"); a second one exits at once with 130.
 */
#ifndef CTG_INTERRUPT_H
#define CTG_INTERRUPT_H

#include <stdbool.h>

#define INTERRUPT_EXIT 130 /* the shell's code for a death by SIGINT */

/* Installs the handlers (idempotent). */
void interrupt_install(void);
/* True once a stop was asked for. */
bool interrupt_requested(void);
/* hold: forgets a request for now (the work that saves what was found
 * must not stop for it) and returns whether there was one; !hold: restores
 * a request that was held back. */
bool interrupt_hold(bool hold);

#endif

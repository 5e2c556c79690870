/* Ctrl-C, SIGTERM and SIGHUP in batch mode, or a request to stop from the
 * viewer: noted, so that a long write stops cleanly (its temporary file
 * removed) instead of dying half way. */
#ifndef RPDTOP_INTERRUPT_H
#define RPDTOP_INTERRUPT_H

/* Catch them; SIGHUP already ignored (nohup) is left ignored. */
void interrupt_catch(void);
int interrupt_pending(void);
/* Ask the work in progress to stop, as a signal would. */
void interrupt_raise(void);
/* Forget a request to stop (before new work). */
void interrupt_clear(void);

#endif

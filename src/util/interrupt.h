/* Ctrl-C, SIGTERM and SIGHUP in batch mode: noted, so that a long write
 * stops cleanly (its temporary file removed) instead of dying half way. */
#ifndef RPDTOP_INTERRUPT_H
#define RPDTOP_INTERRUPT_H

void interrupt_catch(void);
int interrupt_pending(void);

#endif

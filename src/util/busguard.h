/* Reading a file through a mapping: a file another process cuts short
 * meanwhile (a trace copied over while it is read) raises SIGBUS at the
 * first page past its new end, which would kill the process. A thread
 * that reads such a mapping arms a jump back to itself for the time it
 * reads; the handler takes it, and the reader declines what it was doing.
 * A SIGBUS with no jump armed on its thread goes to the handler there was
 * before (the viewer's, which gives the terminal back) or kills the
 * process as it would have. */
#ifndef RPDTOP_BUSGUARD_H
#define RPDTOP_BUSGUARD_H

#include <setjmp.h>

/* Make the handler SIGBUS's, the one it finds kept for what it does not
 * catch; again after another took its place. */
void busguard_install(void);
/* Arm jump for this thread (sigsetjmp(*jump, 1) before), or disarm
 * (NULL). */
void busguard_arm(sigjmp_buf *jump);
/* For another SIGBUS handler: jump back when this thread armed a jump
 * (else return). */
void busguard_catch(void);

#endif

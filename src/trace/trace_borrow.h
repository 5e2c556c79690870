/* Columns a trace borrows (struct trace_borrow): what is borrowed, and
 * the copies made before a column changes. */
#ifndef RPDTOP_TRACE_BORROW_H
#define RPDTOP_TRACE_BORROW_H

#include "trace/trace.h"

/* Does p point into the block the trace borrows from? */
int trace_borrowed(const struct trace *t, const void *p);
/* Copy the ops' columns to the heap when they are borrowed. */
void trace_own_ops(struct trace *t);
/* Forget the borrowed columns (they are not freed) and release the block. */
void trace_forget_borrowed(struct trace *t);

#endif

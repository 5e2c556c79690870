/* The process-wide cap on threads at work (-j N): every place that runs
 * work on several threads asks here how many more it may start, and does
 * the rest on its own thread. The cap counts the main thread. */
#ifndef RPDTOP_THREADS_H
#define RPDTOP_THREADS_H

/* At most n threads at work at once; 0: one per core (the default). */
void threads_set_limit(int n);
int threads_limit(void);
/* Up to want more threads may start: returns how many (0 when the cap is
 * reached); give them back with threads_release when they have ended. */
int threads_acquire(int want);
void threads_release(int n);
/* A thread that only waits for others (merging what they read) lends its
 * place to them meanwhile, and takes it back after. */
void threads_lend(void);
void threads_reclaim(void);

#endif

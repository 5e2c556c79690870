#include "config.h"
#include "util/interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* Set by a signal handler or by another thread (the viewer asking an
 * export to stop): lock-free atomic, as both need. */
static volatile atomic_int pending;

static void note(int sig)
{
	(void)sig;
	atomic_store(&pending, 1);
}

void interrupt_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* nohup has us ignore SIGHUP: the export outlives the terminal, as
		 * asked. (SIGINT stays caught: a shell ignores it for every
		 * background job, which a kill -INT must still stop.) */
		if (sigs[i] == SIGHUP && sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int interrupt_pending(void)
{
	return atomic_load(&pending);
}

void interrupt_raise(void)
{
	atomic_store(&pending, 1);
}

void interrupt_clear(void)
{
	atomic_store(&pending, 0);
}

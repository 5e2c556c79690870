#include "config.h"
#include "util/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending;

static void note(int sig)
{
	(void)sig;
	pending = 1;
}

void interrupt_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int interrupt_pending(void)
{
	return pending;
}

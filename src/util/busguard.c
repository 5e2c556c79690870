#include "config.h"
#include "util/busguard.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

static _Thread_local sigjmp_buf *armed;
static struct sigaction before; /* what SIGBUS did before the handler */
static pthread_mutex_t installing = PTHREAD_MUTEX_INITIALIZER;

void busguard_catch(void)
{
	sigjmp_buf *j = armed;
	if (j) {
		armed = NULL;
		siglongjmp(*j, 1);
	}
}

static void on_bus(int sig, siginfo_t *info, void *ctx)
{
	busguard_catch();
	/* Not a read of ours: what would have been done. */
	if (before.sa_flags & SA_SIGINFO) {
		if (before.sa_sigaction) {
			before.sa_sigaction(sig, info, ctx);
			return;
		}
	} else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
		before.sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void busguard_install(void)
{
	pthread_mutex_lock(&installing);
	struct sigaction now;
	if (sigaction(SIGBUS, NULL, &now) == 0 &&
	    !((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_bus)) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_bus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, NULL) == 0)
			before = now;
	}
	pthread_mutex_unlock(&installing);
}

void busguard_arm(sigjmp_buf *jump)
{
	armed = jump;
}

#include "config.h"
#include "util/threads.h"

#include <stdatomic.h>
#include <unistd.h>

static atomic_int limit;
static atomic_int busy = 1; /* the main thread */

static int cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

void threads_set_limit(int n)
{
	atomic_store(&limit, n > 0 ? n : 0);
}

int threads_limit(void)
{
	int n = atomic_load(&limit);
	return n > 0 ? n : cores();
}

int threads_acquire(int want)
{
	if (want <= 0)
		return 0;
	int now = atomic_load(&busy);
	for (;;) {
		int room = threads_limit() - now;
		int got = room < want ? room : want;
		if (got <= 0)
			return 0;
		if (atomic_compare_exchange_weak(&busy, &now, now + got))
			return got;
	}
}

void threads_release(int n)
{
	if (n > 0)
		atomic_fetch_sub(&busy, n);
}

void threads_lend(void)
{
	atomic_fetch_sub(&busy, 1);
}

void threads_reclaim(void)
{
	atomic_fetch_add(&busy, 1);
}

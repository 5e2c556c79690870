#include "config.h"
#include "load/progress.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "util/i18n.h"

#define SHOW_AFTER 0.5 /* seconds */
#define SHOW_EVERY 0.1

#define BATCH 65536

static atomic_uint_fast64_t rows_read;
static _Thread_local uint64_t unpublished;
/* The load drawing updates as it reads one input inline, on this thread
 * (loads of several groups may run at once, each on its own). */
static _Thread_local struct progress *inline_progress;

void progress_flush(void)
{
	atomic_fetch_add_explicit(&rows_read, unpublished, memory_order_relaxed);
	unpublished = 0;
}

void progress_row(void)
{
	if (++unpublished < BATCH)
		return;
	progress_flush();
	if (inline_progress)
		progress_update(inline_progress, 0);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *p, size_t inputs, int enabled, int inline_updates)
{
	inline_progress = inline_updates ? p : NULL;
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->started = p->last_shown = now();
	p->shown = 0;
	p->total = inputs;
	p->groups = 0;
	/* Rows are counted from here: loads running at once (node groups)
	 * each count from their own start. */
	p->rows0 = atomic_load(&rows_read);
}

void progress_start_groups(struct progress *p, size_t groups, int enabled)
{
	progress_start(p, groups, enabled, 0);
	p->groups = 1;
}

/* 1234567 -> "1.2M" */
static void human_count(double n, char *buf, size_t size)
{
	if (n >= 1e9)
		snprintf(buf, size, "%.1fG", n / 1e9);
	else if (n >= 1e6)
		snprintf(buf, size, "%.1fM", n / 1e6);
	else if (n >= 1e3)
		snprintf(buf, size, "%.1fk", n / 1e3);
	else
		snprintf(buf, size, "%.0f", n);
}

void progress_update(struct progress *p, size_t done)
{
	if (!p->enabled)
		return;
	double t = now();
	if (t - p->started < SHOW_AFTER || t - p->last_shown < SHOW_EVERY)
		return;
	double rows = (double)(atomic_load(&rows_read) - p->rows0);
	char r[32], rate[32];
	human_count(rows, r, sizeof(r));
	human_count(rows / (t - p->started), rate, sizeof(rate));
	fputc('\r', stderr);
	if (p->groups)
		fprintf(stderr, _("rpdtop: read %zu/%zu node groups, %s rows (%s rows/s)"), done, p->total, r,
			rate);
	else
		fprintf(stderr, _("rpdtop: loading %zu/%zu inputs, %s rows (%s rows/s)"), done, p->total, r,
			rate);
	fputs("\033[K", stderr);
	fflush(stderr);
	p->last_shown = t;
	p->shown = 1;
}

void progress_end(struct progress *p)
{
	inline_progress = NULL;
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
}

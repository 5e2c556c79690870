#include "config.h"
#include "util/memreport.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/xalloc.h"

void mem_report_init(struct mem_report *r)
{
	memset(r, 0, sizeof(*r));
}

void mem_report_free(struct mem_report *r)
{
	free(r->parts);
	memset(r, 0, sizeof(*r));
}

void mem_add(struct mem_report *r, const char *prefix, const char *name, size_t bytes)
{
	char what[sizeof(r->parts[0].what)];
	if (bytes == 0)
		return;
	snprintf(what, sizeof(what), "%s%s", prefix ? prefix : "", name);
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(r->parts[i].what, what) == 0) {
			r->parts[i].bytes += bytes;
			return;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->parts = xrealloc(r->parts, r->cap * sizeof(*r->parts));
	}
	struct mem_part *p = &r->parts[r->n++];
	memcpy(p->what, what, sizeof(what));
	p->bytes = bytes;
}

size_t mem_report_total(const struct mem_report *r)
{
	size_t sum = 0;
	for (size_t i = 0; i < r->n; i++)
		sum += r->parts[i].bytes;
	return sum;
}

static int larger_first(const void *a, const void *b, void *ctx)
{
	const struct mem_part *x = a, *y = b;
	(void)ctx;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->what, y->what);
}

/* A line of /proc/self/status in kB ("VmHWM:"), as bytes; 0 when there
 * is none (not Linux). */
static size_t status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t kb = 0, klen = strlen(key);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0) {
			kb = strtoull(line + klen, NULL, 10);
			break;
		}
	fclose(f);
	return kb * 1024;
}

static void print_line(FILE *out, const char *what, size_t bytes, size_t whole, size_t file_bytes)
{
	fprintf(out, "  %-44s %12.3f MB", what, bytes / 1e6);
	if (whole)
		fprintf(out, " %6.1f %%", 100.0 * bytes / whole);
	else
		fprintf(out, "         ");
	if (file_bytes)
		fprintf(out, " %6.1f %% of the inputs", 100.0 * bytes / file_bytes);
	fputc('\n', out);
}

void mem_report_print(const struct mem_report *r, size_t file_bytes, FILE *out)
{
	struct mem_part *sorted = xmalloc((r->n ? r->n : 1) * sizeof(*sorted));
	if (r->n)
		memcpy(sorted, r->parts, r->n * sizeof(*sorted));
	sort_with(sorted, r->n, sizeof(*sorted), larger_first, NULL);
	size_t total = mem_report_total(r);
	fprintf(out, "memory (allocated, largest first):\n");
	for (size_t i = 0; i < r->n; i++)
		print_line(out, sorted[i].what, sorted[i].bytes, total, file_bytes);
	print_line(out, "all of the above", total, 0, file_bytes);
	print_line(out, "process: peak resident (VmHWM)", status_kb("VmHWM:"), 0, file_bytes);
	print_line(out, "process: resident now (VmRSS)", status_kb("VmRSS:"), 0, file_bytes);
	free(sorted);
}

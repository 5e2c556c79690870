/* Where memory goes: a list of named parts and their bytes (allocated,
 * not used: capacities count), printed largest first beside the
 * process's peak, for --debug-memory. Each structure that holds
 * big arrays adds its own parts (trace_memory, timeline_memory, ...). */
#ifndef RPDTOP_MEMREPORT_H
#define RPDTOP_MEMREPORT_H

#include <stddef.h>
#include <stdio.h>

struct mem_part {
	char what[48];
	size_t bytes;
};

struct mem_report {
	struct mem_part *parts;
	size_t n, cap;
};

void mem_report_init(struct mem_report *r);
void mem_report_free(struct mem_report *r);
/* Add bytes to the part named what (prefix + name), made when new; 0
 * bytes add nothing. */
void mem_add(struct mem_report *r, const char *prefix, const char *name, size_t bytes);
size_t mem_report_total(const struct mem_report *r);
/* The parts, largest first, each with its share of the total, then the
 * total, the process's peak and current resident size and, when given
 * (file_bytes > 0), those as shares of the inputs' size. */
void mem_report_print(const struct mem_report *r, size_t file_bytes, FILE *out);

#endif

/* What a trace holds in memory, column by column (--debug-memory). */
#ifndef RPDTOP_TRACE_MEM_H
#define RPDTOP_TRACE_MEM_H

#include "trace/api_order.h"
#include "trace/trace.h"
#include "util/memreport.h"

void trace_memory(const struct trace *t, struct mem_report *r);
void api_order_memory(const struct api_order *o, struct mem_report *r, const char *prefix);

#endif

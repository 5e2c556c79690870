#include "config.h"
#include "tui/timeline/marker.h"

#include <stdio.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "util/i18n.h"
#include "util/units.h"

void tl_marker_init(struct tl_marker *m)
{
	memset(m, 0, sizeof(*m));
	m->api = TRACE_NONE;
}

void tl_marker_free(struct tl_marker *m)
{
	call_ops_free(&m->calls);
	tl_marker_init(m);
}

int tl_marker_update(struct tl_marker *m, const struct trace *t, const struct api_order *order,
		     const struct selection *sel, unsigned generation, uint32_t api)
{
	if (api == TRACE_NONE || api >= t->apis.n || trace_api_name(t, api) != api_marker_name(t))
		return 0;
	if (m->napis != t->apis.n || !m->calls.first) {
		call_ops_free(&m->calls);
		call_ops_build(t, &m->calls);
		m->napis = t->apis.n;
		m->api = TRACE_NONE;
	}
	if (m->api == api && m->generation == generation)
		return 0;
	marker_gpu_of(t, order, &m->calls, sel, api, &m->gpu, &m->ops);
	m->api = api;
	m->generation = generation;
	return 1;
}

void tl_marker_facts(const struct tl_marker *m, uint32_t api, unsigned generation, char *buf, size_t size)
{
	char gpu[UNITS_BUFSZ];
	buf[0] = '\0';
	if (api == TRACE_NONE || m->api != api || m->generation != generation)
		return;
	snprintf(buf, size, P_("  GPU %s in %llu op", "  GPU %s in %llu ops", m->ops),
		 units_format_ns(m->gpu, gpu, sizeof(gpu)), (unsigned long long)m->ops);
}

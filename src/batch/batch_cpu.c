/* The partial results of the CPU side and of the ranks: API calls and
 * roctx ranges by name (a call's parent and a range's ops are on its own
 * thread, so a process's figures are whole in its group), and each
 * input's row of the ranks report with its collectives' instances, which
 * are matched across every group's ranks when they are merged. */
#include "config.h"
#include "batch/batch_part.h"

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "analysis/namestat.h"
#include "analysis/ranks.h"
#include "present/report_cpu.h"
#include "present/report_ranks.h"

void batch_put_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       enum report_kind kind, struct bytes_out *b)
{
	struct namestat a;
	namestat_init(&a);
	if (kind == REPORT_API) {
		api_calls_part_add(&a, t, o, sel);
	} else {
		struct markers m;
		markers_find_any(t, o, sel, &m);
		markers_part_add(&a, t, &m, sel);
		markers_free(&m);
	}
	namestat_encode(&a, t, b);
	namestat_free(&a);
}

int batch_by_name_table(const struct batch_plan *plan, enum report_kind kind, struct merge_state *m,
			const struct report_params *rp, struct table *tb, struct rpd_error *err)
{
	struct namestat a;
	namestat_init(&a);
	for (size_t g = 0; g < plan->ngroups; g++) {
		struct part_in in = batch_part_in(m, g);
		if (namestat_merge(&a, &in)) {
			namestat_free(&a);
			return batch_bad_part(g, err);
		}
	}
	if (kind == REPORT_API) {
		struct api_calls c;
		api_calls_part_finish(&a, &m->skel, &c);
		report_api_table(&m->skel, rp, &c, tb);
		api_calls_free(&c);
	} else {
		struct marker_table mt;
		markers_part_finish(&a, &m->skel, &mt);
		report_markers_table(&m->skel, rp, &mt, tb);
		marker_table_free(&mt);
	}
	return 0;
}

void batch_put_ranks(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct bytes_out *b)
{
	struct ranks_part p;
	ranks_part_init(&p);
	ranks_part_add(&p, t, sel, comm);
	ranks_part_encode(&p, t, b);
	ranks_part_free(&p);
}

int batch_ranks_table(const struct batch_plan *plan, struct merge_state *m, const struct report_params *rp,
		      struct table *tb, struct rpd_error *err)
{
	struct ranks_part p;
	struct ranks rk;
	ranks_part_init(&p);
	for (size_t g = 0; g < plan->ngroups; g++) {
		struct part_in in = batch_part_in(m, g);
		if (ranks_part_merge(&p, &in)) {
			ranks_part_free(&p);
			return batch_bad_part(g, err);
		}
	}
	ranks_part_finish(&p, &m->skel, &rk);
	report_ranks_table(&m->skel, rp, &rk, tb);
	ranks_free(&rk);
	return 0;
}

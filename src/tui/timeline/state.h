/* The timeline pane's state, shared by the files of the pane (and by no
 * other view): the lanes' index and the job building the next one, the
 * view and the cursor, the lanes shown, and the state of its parts. */
#ifndef RPDTOP_TIMELINE_STATE_H
#define RPDTOP_TIMELINE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/graphs.h"
#include "analysis/timeline.h"
#include "trace/launch_dims.h"
#include "tui/timeline/gaps.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/marker.h"
#include "tui/timeline/marks.h"
#include "tui/timeline/range.h"

struct tl_find;

#define LABEL_MIN 14
#define LABEL_MAX 40
#define MIN_SPAN 10 /* ns across the screen, at most zoom */

struct timeline_pane {
	struct timeline tl;
	unsigned generation;
	int ready;
	struct timeline_job *job; /* the next index, being built */
	struct session *held;     /* the session the job holds */
	unsigned job_generation;
	int job_dim;
	int dim;                       /* show what the filter drops, dimmed */
	int64_t view_start, view_span; /* what the screen shows */
	int64_t cursor;                /* a time */
	size_t lane, top;              /* the cursor's lane; the first shown (in vis) */
	uint8_t *folded;               /* per thread: its nesting rows hidden */
	size_t nfolded;
	struct tl_lane_rules rules; /* CPU lanes hidden, the lane filter */
	size_t *vis, nvis;          /* the lanes shown, in order */
	int cols, rows;             /* of the lane area, as last drawn */
	int label_need;             /* the widest lane label, within limits */
	int label_w;                /* as drawn: at most a third of a wide screen */
	int64_t *minimap;           /* busy per column over the whole trace */
	uint32_t dims_op;           /* the kernel whose sizes were last read */
	int dims_ok, dims_op_set;
	struct launch_dims dims;
	struct graph_index *graphs; /* the nodes' places, for the API rows there were: */
	size_t graphs_apis;
	uint32_t place_op; /* the op whose place in a graph replay was last found */
	size_t place_apis; /* the API rows there were then (more may come) */
	int place_ok, place_set;
	struct graph_place place;
	int minimap_cols;
	struct tl_find *find;    /* a search: n and N go from match to match */
	struct tl_range range;   /* a range marked for its statistics */
	struct tl_marks marks;   /* named marks and the jump history */
	uint32_t came_from;      /* the op Enter left for its launch, or TRACE_NONE */
	struct tl_gaps gaps;     /* the GPUs' gaps, for } and { and idle time */
	int lanes_drawn;         /* the lanes installed last are on screen */
	int details_waiting;     /* the detail line's facts come once they are */
	struct tl_marker marker; /* the GPU work under the range at the cursor */
};

#endif

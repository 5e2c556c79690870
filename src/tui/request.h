/* Every command of the interface, listed once: its id, the keys bound to
 * it by default, its help group, which views act on it, and its help
 * text. The enum, the key lookup and the help screen are all generated
 * from this list. */
#ifndef RPDTOP_REQUEST_H
#define RPDTOP_REQUEST_H

#include <stddef.h>

#include "util/i18n.h"

/* REQ(id, keys (space-separated, termkey notation), group, scope, help);
 * scope is an enum request_scope without its REQ_SCOPE_ prefix. */
#define REQUEST_LIST(REQ)                                                                                    \
	REQ(VIEW_PROFILE, "1", N_("Panes"), APP, N_("Flat profile: every GPU op by name"))                   \
	REQ(VIEW_KERNELS, "2", N_("Panes"), APP, N_("Kernel top: kernels only"))                             \
	REQ(VIEW_BUSY, "3", N_("Panes"), APP, N_("GPU busy: one row per GPU"))                               \
	REQ(VIEW_TIMELINE, "4", N_("Panes"), APP, N_("Timeline"))                                            \
	REQ(VIEW_API, "5", N_("Panes"), APP, N_("API calls by name, with self time"))                        \
	REQ(VIEW_MARKERS, "6", N_("Panes"), APP,                                                             \
	    N_("roctx ranges by text, with the GPU time under them (Enter: their instances)"))               \
	REQ(VIEW_FINDINGS, "7", N_("Panes"), APP,                                                            \
	    N_("Findings: what is wrong, the most GPU time at stake first (Enter: the worst instance)"))     \
	REQ(VIEW_DIFF, "8", N_("Panes"), APP,                                                                \
	    N_("Diff of two runs by name (--diff; Enter: both runs' instances)"))                            \
	REQ(NEXT_PANE, "Tab", N_("Panes"), APP, N_("Next pane"))                                             \
	REQ(PREV_PANE, "S-Tab", N_("Panes"), APP, N_("Previous pane"))                                       \
	REQ(GAPS_VIEW, "I", N_("Panes"), APP,                                                                \
	    N_("Gaps of the GPUs, longest first, and each GPU's breakdown"))                                 \
	REQ(GAP_THRESHOLD, "x", N_("Panes"), APP,                                                            \
	    N_("Gap threshold (} and {, kernel waits; --gap-threshold)"))                                    \
	REQ(MOVE_UP, "Up k", N_("Moving"), TABLE, N_("Cursor up (timeline: lane up)"))                       \
	REQ(MOVE_DOWN, "Down j", N_("Moving"), TABLE, N_("Cursor down (timeline: lane down)"))               \
	REQ(MOVE_LEFT, "Left h", N_("Moving"), TABLE,                                                        \
	    N_("Scroll the names left (timeline: cursor to the earlier time)"))                              \
	REQ(MOVE_RIGHT, "Right l", N_("Moving"), TABLE,                                                      \
	    N_("Scroll the names right (timeline: cursor to the later time)"))                               \
	REQ(PAN_LEFT, "H", N_("Timeline"), TIMELINE, N_("Pan a screen to the left"))                         \
	REQ(PAN_RIGHT, "L", N_("Timeline"), TIMELINE, N_("Pan a screen to the right"))                       \
	REQ(ZOOM_IN, "+ i =", N_("Timeline"), TIMELINE, N_("Zoom in around the cursor"))                     \
	REQ(ZOOM_OUT, "- o", N_("Timeline"), TIMELINE, N_("Zoom out around the cursor"))                     \
	REQ(ZOOM_ALL, "0", N_("Timeline"), TIMELINE, N_("The whole trace"))                                  \
	REQ(ZOOM_EVENT, "z", N_("Timeline"), TIMELINE, N_("Zoom to the event under the cursor"))             \
	REQ(ZOOM_RANGE, "Z", N_("Timeline"), TIMELINE,                                                       \
	    N_("Zoom to the marked range (r), else to the time window (W, [ ])"))                            \
	REQ(WINDOW_START, "[", N_("Timeline"), TIMELINE, N_("Time window starts at the cursor"))             \
	REQ(WINDOW_END, "]", N_("Timeline"), TIMELINE, N_("Time window ends at the cursor"))                 \
	REQ(WINDOW_CLEAR, "w", N_("Timeline"), TIMELINE, N_("No time window"))                               \
	REQ(TOGGLE_DIM, "f", N_("Timeline"), TIMELINE, N_("Events the filter drops: hidden or dimmed"))      \
	REQ(TIME_START, "Home", N_("Timeline"), TIMELINE, N_("The trace's start (elsewhere: first row)"))    \
	REQ(TIME_END, "End", N_("Timeline"), TIMELINE, N_("The trace's end (elsewhere: last row)"))          \
	REQ(MARK_SET, "m", N_("Timeline"), TIMELINE,                                                         \
	    N_("Mark the cursor's time and lane with a letter (m a)"))                                       \
	REQ(MARK_GO, "' `", N_("Timeline"), TIMELINE,                                                        \
	    N_("Go to a mark ('a); the status line shows the time from it"))                                 \
	REQ(JUMP_BACK, "<", N_("Timeline"), TIMELINE,                                                        \
	    N_("Back to where a jump (Enter, ', Home, End, }) came from"))                                   \
	REQ(JUMP_FORWARD, ">", N_("Timeline"), TIMELINE, N_("Forward again after <"))                        \
	REQ(FIND_LIST, "F", N_("Timeline"), TIMELINE, N_("The matches of the search in a list"))             \
	REQ(GAP_NEXT, "}", N_("Timeline"), TIMELINE,                                                         \
	    N_("Next gap on the cursor's GPU at least the gap threshold long (x sets it)"))                  \
	REQ(GAP_PREV, "{", N_("Timeline"), TIMELINE, N_("Previous gap on the cursor's GPU as long"))         \
	REQ(RANGE_MARK, "r", N_("Timeline"), TIMELINE,                                                       \
	    N_("Mark a range at the cursor: its start, then its end (and see what is in it)"))               \
	REQ(RANGE_SHOW, "R", N_("Timeline"), TIMELINE, N_("What is in the marked range"))                    \
	REQ(PAGE_UP, "PageUp C-b", N_("Moving"), TABLE, N_("Page up"))                                       \
	REQ(PAGE_DOWN, "PageDown C-f", N_("Moving"), TABLE, N_("Page down"))                                 \
	REQ(TOGGLE_LANE, "Space", N_("Moving"), TIMELINE,                                                    \
	    N_("Fold or unfold a thread's nesting rows (elsewhere: page down)"))                             \
	REQ(FOLD_ALL, "*", N_("Timeline"), TIMELINE,                                                         \
	    N_("Fold every thread's nesting rows, or unfold them all"))                                      \
	REQ(HIDE_CPU, "c", N_("Timeline"), TIMELINE, N_("CPU lanes hidden or shown"))                        \
	REQ(LANE_FILTER, "|", N_("Timeline"), TIMELINE,                                                      \
	    N_("Lane filter: only lanes whose label matches (GPU 0, rank2, a pid; !pattern: not); it also "  \
	       "shows the counters of GPUs that ran no op"))                                                 \
	REQ(MOVE_FIRST, "g", N_("Moving"), TABLE, N_("First row (timeline: first lane)"))                    \
	REQ(MOVE_LAST, "G", N_("Moving"), TABLE, N_("Last row (timeline: last lane)"))                       \
	REQ(ENTER, "Enter", N_("Tables"), TABLE,                                                             \
	    N_("The row's first instance in the timeline, where n N walk its name's instances (timeline: "   \
	       "from an op to its launch and back)"))                                                        \
	REQ(DETAILS, "v", N_("Tables"), TABLE,                                                               \
	    N_("Details of the row (Enter there: the longest instance, a bucket's list)"))                   \
	REQ(FIND, "/ F3", N_("Tables"), TABLE, N_("Find a name (as you type; timeline: search events)"))     \
	REQ(FIND_NEXT, "n", N_("Tables"), TABLE,                                                             \
	    N_("Next row matching the last find (timeline: next match of a search or next instance of the "  \
	       "name a table's Enter showed, else next event)"))                                             \
	REQ(FIND_PREV, "N", N_("Tables"), TABLE,                                                             \
	    N_("Previous row matching the last find (timeline: previous match or instance, else event)"))    \
	REQ(SORT_NEXT, "s", N_("Tables"), TABLE, N_("Sort by the next column"))                              \
	REQ(SORT_REVERSE, "S", N_("Tables"), TABLE, N_("Reverse the sort order"))                            \
	REQ(FILTER, "\\ F4", N_("Filter"), APP,                                                              \
	    N_("Filter: only names matching a pattern (!pattern: not matching; empty: none)"))               \
	REQ(FILTER_ADD, "&", N_("Filter"), APP, N_("Add a filter to those in force"))                        \
	REQ(FILTER_POP, "Delete", N_("Filter"), APP, N_("Remove the last filter"))                           \
	REQ(WINDOW, "W", N_("Filter"), APP,                                                                  \
	    N_("Time window START:END (+1.5s:+2s, 10%:20%, marker:step#3; empty: none)"))                    \
	REQ(GPU_FILTER, "@", N_("Filter"), APP,                                                              \
	    N_("GPU filter: only GPUs whose label or number matches (!pattern: not; empty: all)"))           \
	REQ(INPUT_FILTER, "#", N_("Filter"), APP,                                                            \
	    N_("Input filter: only inputs whose file name, path or node matches (empty: all)"))              \
	REQ(EXPORT, "e", N_("Filter"), APP, N_("Export what the filter and window keep to a new database"))  \
	REQ(TOGGLE_DEMANGLE, "d", N_("Names"), APP, N_("Demangle C++ names on/off"))                         \
	REQ(TOGGLE_TEMPLATES, "t", N_("Names"), APP,                                                         \
	    N_("Strip templates and arguments of C++ names on/off"))                                         \
	REQ(TOGGLE_TENSILE, "T", N_("Names"), APP,                                                           \
	    N_("Short Tensile names: operation, macro tile, the fields that differ"))                        \
	REQ(HELP, "? F1", N_("General"), APP, N_("This help"))                                               \
	REQ(REFRESH, "C-l", N_("General"), APP, N_("Redraw the screen"))                                     \
	REQ(SUSPEND, "C-z", N_("General"), APP, N_("Suspend (fg to come back)"))                             \
	REQ(QUIT, "q", N_("General"), APP,                                                                   \
	    N_("Back from a view; timeline: end the search, drop the range; quit from a pane"))              \
	REQ(ESCAPE, "Escape", N_("General"), APP,                                                            \
	    N_("Close a view or a message; timeline: end the search, drop the range; never quits"))          \
	REQ(QUIT_NOW, "Q C-c", N_("General"), APP, N_("Quit at once"))

#define REQ_ENUM(id, keys, group, scope, help) REQ_##id,
enum request { REQ_NONE, REQUEST_LIST(REQ_ENUM) REQ_COUNT };
#undef REQ_ENUM

/* Which views act on a request. The frame answers the requests of every
 * view; a view may still act on one of another scope first (q in the
 * timeline ends its search before the frame goes back). */
enum request_scope {
	REQ_SCOPE_APP,      /* everywhere: the frame acts (panes, filter, help, quit) */
	REQ_SCOPE_TABLE,    /* a table view acts: moves, find, sort, Enter, details */
	REQ_SCOPE_TIMELINE, /* the timeline's own */
};

struct request_info {
	enum request req;
	const char *name; /* "MOVE_DOWN"; spelled move-down in settings */
	const char *keys;
	const char *group;
	enum request_scope scope;
	const char *help;
};

/* The request bound to a key given in termkey notation ("j", "C-c"). */
enum request request_for_key(const char *key);
/* A request by its name in the settings file ("move-down"). */
enum request request_by_name(const char *name);
/* Bind a key to a request, before the default bindings; -1 when full. */
int request_bind(const char *key, enum request req);

/* Every request, in list order; *n is their number. */
const struct request_info *request_table(size_t *n);
/* The views that act on a request (REQ_SCOPE_APP for REQ_NONE). */
enum request_scope request_scope(enum request req);

/* What a handler asks of the main loop; only the loop acts on it. */
enum {
	ACT_NONE = 0,
	ACT_REDRAW = 1,
	ACT_QUIT = 2,
	ACT_UNHANDLED = 4,
	ACT_SUSPEND = 8,
	ACT_RESELECT = 16, /* the filter or window changed: remake the selection */
	ACT_STAY = 32,     /* a prompt's owner keeps it open (after prompt_error) */
};

#endif

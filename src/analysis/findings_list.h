/* The findings' rules, one line each: FINDING(fn, name, scope) is the
 * rule finding_fn (analysis/finding_*.c), reported as name. A rule of
 * scope GPU finds each GPU's findings from that GPU's ops and calls alone
 * (a node group holds them all); one of scope RUN needs the whole run
 * (the steps, every GPU's busy share, every rank's collectives), which
 * node groups bring as partial results (analysis/findings_part.c). The
 * order is the order of the ids, which breaks ties between findings of
 * equal time. */
FINDING(host_wait, "host-wait", GPU)
FINDING(sync_call, "sync-call", GPU)
FINDING(launch_bound, "launch-bound", GPU)
FINDING(outlier, "outlier", GPU)
FINDING(slow_step, "slow-step", RUN)
FINDING(warmup, "warmup", RUN)
FINDING(exposed_comm, "exposed-comm", GPU)
FINDING(straggler, "straggler", RUN)
FINDING(low_util, "low-util", GPU)
FINDING(imbalance, "imbalance", RUN)
FINDING(graph_gap, "graph-gap", GPU)

/* The findings' rules, one line each: FINDING(fn, name, scope, steps) is
 * the rule finding_fn (analysis/finding_*.c), reported as name. A rule of
 * scope GPU finds each GPU's findings from that GPU's ops and calls alone
 * (a node group holds them all); one of scope RUN needs the whole run
 * (the steps, every GPU's busy share, every rank's collectives), which
 * node groups bring as partial results (analysis/findings_part.c). The
 * order is the order of the ids, which breaks ties between findings of
 * equal time. steps is 1 for a rule that reads the steps
 * (findings_ctx_steps), which a whole load chooses while the others run. */
FINDING(host_wait, "host-wait", GPU, 0)
FINDING(sync_call, "sync-call", GPU, 0)
FINDING(launch_bound, "launch-bound", GPU, 0)
FINDING(outlier, "outlier", GPU, 0)
FINDING(slow_step, "slow-step", RUN, 1)
FINDING(warmup, "warmup", RUN, 1)
FINDING(exposed_comm, "exposed-comm", GPU, 0)
FINDING(straggler, "straggler", RUN, 0)
FINDING(low_util, "low-util", GPU, 0)
FINDING(imbalance, "imbalance", RUN, 0)
FINDING(graph_gap, "graph-gap", GPU, 0)

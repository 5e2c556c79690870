/* The findings' rules, one line each: FINDING(fn, name) is the rule
 * finding_fn (analysis/finding_*.c), reported as name. The order is the
 * order of the ids, which breaks ties between findings of equal time. */
FINDING(host_wait, "host-wait")
FINDING(sync_call, "sync-call")
FINDING(launch_bound, "launch-bound")
FINDING(outlier, "outlier")
FINDING(slow_step, "slow-step")
FINDING(warmup, "warmup")
FINDING(exposed_comm, "exposed-comm")
FINDING(straggler, "straggler")
FINDING(low_util, "low-util")
FINDING(imbalance, "imbalance")
FINDING(graph_gap, "graph-gap")

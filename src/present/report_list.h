/* The batch reports, one line each, in the order --help and the message
 * for an unknown name list them. REPORT(name) is the entry report_name,
 * the last thing in present/report_name.c (ktop's is in report_top.c). */
REPORT(top)
REPORT(ktop)
REPORT(busy)
REPORT(counters)
REPORT(gaps)
REPORT(idle)
REPORT(launch)
REPORT(graphs)
REPORT(breakdown)
REPORT(categories)
REPORT(ranks)
REPORT(api)
REPORT(markers)
REPORT(ranges)
REPORT(steps)
REPORT(findings)

/* unhidden-comm: after GPU 0's last op and its launching thread's last
 * call (T: 1 us after both), 100 all-reduces of 200 us on its
 * communication queue (1) with nothing computing beside them: call i
 * hipExtLaunchKernel [t, t + 5 us] from t = T + 300 us * i, its kernel
 * [t + 10 us, t + 210 us]. exposed-comm finds GPU 0's exposed
 * communication exactly 20 ms more than without them. */
#include "config.h"

#include "rpdgen_plant.h"

#define ALLREDUCE "ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"

static const char unhidden_comm_sql[] =
	"INSERT INTO rocpd_string (string) SELECT s FROM (SELECT '" ALLREDUCE "' AS s UNION ALL SELECT "
	"'hipExtLaunchKernel' UNION ALL SELECT 'KernelExecution' UNION ALL SELECT '') "
	"WHERE s NOT IN (SELECT string FROM rocpd_string);"
	"CREATE TEMP TABLE th AS SELECT a.pid AS pid, a.tid AS tid FROM rocpd_api a JOIN rocpd_api_ops l "
	"ON l.api_id = a.id JOIN rocpd_op o ON o.id = l.op_id WHERE o.gpuId = 0 ORDER BY a.id LIMIT 1;"
	"CREATE TEMP TABLE s AS SELECT (SELECT min(id) FROM rocpd_string WHERE string = '" ALLREDUCE "') "
	"AS k, (SELECT min(id) FROM rocpd_string WHERE string = 'hipExtLaunchKernel') AS launch, "
	"(SELECT min(id) FROM rocpd_string WHERE string = 'KernelExecution') AS kx, "
	"(SELECT min(id) FROM rocpd_string WHERE string = '') AS empty;"
	"CREATE TEMP TABLE c AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k "
	"WHERE i < 99) SELECT i, max((SELECT max(end) FROM rocpd_op WHERE gpuId = 0), "
	"(SELECT max(end) FROM rocpd_api WHERE pid = (SELECT pid FROM th) AND tid = (SELECT tid FROM th)))"
	" + 1000 + 300000 * i AS t FROM k;"
	"INSERT INTO rocpd_api (pid, tid, start, end, apiName_id, args_id) SELECT th.pid, th.tid, t, "
	"t + 5000, s.launch, s.empty FROM c, th, s ORDER BY i;"
	"INSERT INTO rocpd_op (gpuId, queueId, sequenceId, completionSignal, start, end, description_id, "
	"opType_id) SELECT 0, 1, 0, '', t + 10000, t + 210000, s.k, s.kx FROM c, s ORDER BY i;"
	"INSERT INTO rocpd_api_ops (api_id, op_id) SELECT (SELECT a.id FROM rocpd_api a WHERE "
	"a.start = c.t AND a.apiName_id = (SELECT launch FROM s)), (SELECT o.id FROM rocpd_op o WHERE "
	"o.start = c.t + 10000 AND o.description_id = (SELECT k FROM s) AND o.gpuId = 0) FROM c ORDER BY i;"
	"DROP TABLE c; DROP TABLE s; DROP TABLE th;";

int plant_unhidden_comm(sqlite3 *db, char **msg)
{
	return plant_exec(db, unhidden_comm_sql, msg);
}

/* blocking-copy: after GPU 0's last op and its launching thread's last
 * call (T: 1 us after both), 100 steps of 1125 us on that thread: step i
 * from t = T + 1125 us * i launches a kernel "planted_step" (call
 * hipLaunchKernel [t, t + 5 us], kernel [t + 10 us, t + 110 us]), then
 * copies its result back with a blocking hipMemcpy [t + 6 us, t + 125 us]
 * whose CopyDeviceToHost runs [t + 110 us, t + 120 us], then does 1 ms of
 * host work with no call. GPU 0 waits 1015 us after each copy but the
 * last for the next step's launch, a host-wait gap that begins inside the
 * hipMemcpy: host-wait grows by those 99 gaps and the one before the
 * first step (from the last op to T + 10 us); sync-call counts the 99
 * for hipMemcpy, 100.485 ms. */
#include "config.h"

#include "rpdgen_plant.h"

static const char blocking_copy_sql[] =
	"INSERT INTO rocpd_string (string) SELECT s FROM (SELECT 'planted_step' AS s UNION ALL SELECT "
	"'hipLaunchKernel' UNION ALL SELECT 'hipMemcpy' UNION ALL SELECT 'KernelExecution' UNION ALL "
	"SELECT 'CopyDeviceToHost' UNION ALL SELECT '') WHERE s NOT IN (SELECT string FROM rocpd_string);"
	"CREATE TEMP TABLE th AS SELECT a.pid AS pid, a.tid AS tid FROM rocpd_api a JOIN rocpd_api_ops l "
	"ON l.api_id = a.id JOIN rocpd_op o ON o.id = l.op_id WHERE o.gpuId = 0 ORDER BY a.id LIMIT 1;"
	"CREATE TEMP TABLE s AS SELECT (SELECT min(id) FROM rocpd_string WHERE string = 'planted_step') "
	"AS k, (SELECT min(id) FROM rocpd_string WHERE string = 'hipLaunchKernel') AS launch, "
	"(SELECT min(id) FROM rocpd_string WHERE string = 'hipMemcpy') AS copy, "
	"(SELECT min(id) FROM rocpd_string WHERE string = 'KernelExecution') AS kx, "
	"(SELECT min(id) FROM rocpd_string WHERE string = 'CopyDeviceToHost') AS dtoh, "
	"(SELECT min(id) FROM rocpd_string WHERE string = '') AS empty;"
	"CREATE TEMP TABLE step AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k "
	"WHERE i < 99) SELECT i, max((SELECT max(end) FROM rocpd_op WHERE gpuId = 0), "
	"(SELECT max(end) FROM rocpd_api WHERE pid = (SELECT pid FROM th) AND tid = (SELECT tid FROM th)))"
	" + 1000 + 1125000 * i AS t FROM k;"
	"CREATE TEMP TABLE made (step INTEGER, what INTEGER, api INTEGER, op INTEGER);"
	/* Each step's two calls and two ops, remembered to link them. */
	"INSERT INTO rocpd_api (pid, tid, start, end, apiName_id, args_id) SELECT th.pid, th.tid, t, "
	"t + 5000, s.launch, s.empty FROM step, th, s ORDER BY i;"
	"INSERT INTO made SELECT i, 0, (SELECT id FROM rocpd_api a WHERE a.start = step.t AND "
	"a.apiName_id = (SELECT launch FROM s)), NULL FROM step;"
	"INSERT INTO rocpd_api (pid, tid, start, end, apiName_id, args_id) SELECT th.pid, th.tid, "
	"t + 6000, t + 125000, s.copy, s.empty FROM step, th, s ORDER BY i;"
	"INSERT INTO made SELECT i, 1, (SELECT id FROM rocpd_api a WHERE a.start = step.t + 6000 AND "
	"a.apiName_id = (SELECT copy FROM s)), NULL FROM step;"
	"INSERT INTO rocpd_op (gpuId, queueId, sequenceId, completionSignal, start, end, description_id, "
	"opType_id) SELECT 0, 0, 0, '', t + 10000, t + 110000, s.k, s.kx FROM step, s ORDER BY i;"
	"UPDATE made SET op = (SELECT o.id FROM rocpd_op o, step WHERE step.i = made.step AND "
	"o.start = step.t + 10000 AND o.description_id = (SELECT k FROM s)) WHERE what = 0;"
	"INSERT INTO rocpd_op (gpuId, queueId, sequenceId, completionSignal, start, end, description_id, "
	"opType_id) SELECT 0, 0, 0, '', t + 110000, t + 120000, s.empty, s.dtoh FROM step, s ORDER BY i;"
	"UPDATE made SET op = (SELECT o.id FROM rocpd_op o, step WHERE step.i = made.step AND "
	"o.start = step.t + 110000 AND o.opType_id = (SELECT dtoh FROM s) AND o.gpuId = 0) WHERE what = 1;"
	"INSERT INTO rocpd_api_ops (api_id, op_id) SELECT api, op FROM made ORDER BY step, what;"
	"DROP TABLE made; DROP TABLE step; DROP TABLE s; DROP TABLE th;";

int plant_blocking_copy(sqlite3 *db, char **msg)
{
	return plant_exec(db, blocking_copy_sql, msg);
}

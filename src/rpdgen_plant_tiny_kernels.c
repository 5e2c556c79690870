/* tiny-kernels: after GPU 0's last op, a burst of 1000 kernels
 * "tiny_kernel" of 2 us each on its queue 0, each launched by a
 * hipLaunchKernel call of 10 us on the thread that launched GPU 0's ops:
 * call i from T + 12 us * i (T: 1 us after GPU 0's last op ends), its
 * kernel from 1 us after the call ends. Each kernel runs shorter than its
 * launch, after 10 us of idle GPU (12 us before the first): launch-bound
 * finds 1000 instances and exactly 10 ms. */
#include "config.h"

#include "rpdgen_plant.h"

static const char tiny_sql[] =
	"INSERT INTO rocpd_string (string) SELECT 'tiny_kernel' WHERE NOT EXISTS "
	"(SELECT 1 FROM rocpd_string WHERE string = 'tiny_kernel');"
	"INSERT INTO rocpd_string (string) SELECT 'hipLaunchKernel' WHERE NOT EXISTS "
	"(SELECT 1 FROM rocpd_string WHERE string = 'hipLaunchKernel');"
	"INSERT INTO rocpd_string (string) SELECT 'KernelExecution' WHERE NOT EXISTS "
	"(SELECT 1 FROM rocpd_string WHERE string = 'KernelExecution');"
	"CREATE TEMP TABLE tiny AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < "
	"999) "
	"SELECT i, (SELECT max(end) FROM rocpd_op WHERE gpuId = 0) + 1000 + 12000 * i AS t FROM k;"
	"INSERT INTO rocpd_api (pid, tid, start, end, apiName_id, args_id) "
	"SELECT th.pid, th.tid, tiny.t, tiny.t + 10000, (SELECT min(id) FROM rocpd_string WHERE string = "
	"'hipLaunchKernel'), (SELECT min(id) FROM rocpd_string WHERE string = '') FROM tiny, "
	"(SELECT a.pid AS pid, a.tid AS tid FROM rocpd_api a JOIN rocpd_api_ops l ON l.api_id = a.id "
	"JOIN rocpd_op o ON o.id = l.op_id WHERE o.gpuId = 0 ORDER BY a.id LIMIT 1) th ORDER BY tiny.i;"
	"INSERT INTO rocpd_op (gpuId, queueId, sequenceId, completionSignal, start, end, description_id, "
	"opType_id) "
	"SELECT 0, 0, 0, '', t + 11000, t + 13000, (SELECT min(id) FROM rocpd_string WHERE string = "
	"'tiny_kernel'), "
	"(SELECT min(id) FROM rocpd_string WHERE string = 'KernelExecution') FROM tiny ORDER BY i;"
	"INSERT INTO rocpd_api_ops (api_id, op_id) SELECT a.id, o.id FROM rocpd_op o JOIN rocpd_api a "
	"ON a.start = o.start - 11000 AND a.apiName_id = (SELECT min(id) FROM rocpd_string WHERE string = "
	"'hipLaunchKernel') WHERE o.description_id = (SELECT min(id) FROM rocpd_string WHERE string = "
	"'tiny_kernel') ORDER BY o.id;"
	"DROP TABLE tiny;";

int plant_tiny_kernels(sqlite3 *db, char **msg)
{
	return plant_exec(db, tiny_sql, msg);
}

/* slow-step: the tenth step (roctx range 'step N') of the first process
 * made 50 ms longer: its calls and ranges, and the ops of its GPUs, that
 * start at or after the step's end start 50 ms later, and its ranges and
 * calls running then end 50 ms later (the step among them). The GPUs sit
 * idle inside the step meanwhile; slow-step finds it, its duration minus
 * the median step. */
#include "config.h"

#include "rpdgen_plant.h"

static const char slow_step_sql[] =
	"CREATE TEMP TABLE step AS SELECT a.pid AS pid, a.end AS p FROM rocpd_api a JOIN rocpd_string n ON "
	"n.id = "
	"a.apiName_id JOIN rocpd_string g ON g.id = a.args_id WHERE n.string = 'UserMarker' AND g.string "
	"GLOB "
	"'step *' AND a.pid = (SELECT min(pid) FROM rocpd_api) ORDER BY a.start, a.id LIMIT 1 OFFSET 9;"
	"CREATE TEMP TABLE gpus AS SELECT DISTINCT o.gpuId AS gpu FROM rocpd_op o JOIN rocpd_api_ops l ON "
	"l.op_id = o.id JOIN rocpd_api a ON a.id = l.api_id WHERE a.pid = (SELECT pid FROM step);"
	"UPDATE rocpd_op SET start = start + 50000000, end = end + 50000000 WHERE gpuId IN (SELECT gpu FROM "
	"gpus) AND start >= (SELECT p FROM step);"
	"UPDATE rocpd_api SET end = end + 50000000 WHERE pid = (SELECT pid FROM step) AND start < "
	"(SELECT p FROM step) AND end >= (SELECT p FROM step);"
	"UPDATE rocpd_api SET start = start + 50000000, end = end + 50000000 WHERE pid = (SELECT pid FROM "
	"step) "
	"AND start >= (SELECT p FROM step);"
	"DROP TABLE step; DROP TABLE gpus;";

int plant_slow_step(sqlite3 *db, char **msg)
{
	return plant_exec(db, slow_step_sql, msg);
}

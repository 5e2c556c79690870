/* libFuzzer harness for the Nsight Systems reader: the bytes say which of
 * an export's tables are there, which of their columns each lacks, whether
 * StringIds.id is its key, whether the export names its schema version,
 * and the rows (fuzz_tables.h); the export so made is read every way the
 * load reads one into a trace and the analyses over it, or one clean
 * error. Never a crash, a leak or a hang. */
#include "config.h"

#include "load/nsys_detect.h"

#include "fuzz_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct sqltable *table(int t)
{
	return nsys_table((enum nsys_table)t);
}

/* StringIds.id is its key unless bit 6 of its table's byte says not. */
static const char *type(int t, unsigned c, int drop)
{
	return t == NSYS_STRINGS && c == NSYS_STRING_ID && (drop < 0 || !(drop & 0x40))
		       ? " INTEGER PRIMARY KEY"
		       : "";
}

static const struct fuzz_schema schema = {
	NSYS_NTABLES,
	table,
	type,
	"CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT); INSERT INTO META_DATA_EXPORT VALUES "
	"('EXPORT_SCHEMA_VERSION', '3.13.2')",
	{ 34, 59, 60, 75 }, /* NVTX event types read */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path("in.sqlite");
	if (path && make_file(data, size, &schema, path) == 0)
		read_every_way(path);
	return 0;
}

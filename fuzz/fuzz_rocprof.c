/* libFuzzer harness for the rocprof results.db reader: the bytes say which
 * of its tables are there (OPS, COPY, HIP, HSA, KFD, rocTX), which of their
 * columns each lacks (BeginNs, EndNs, Name, pid, Index, __section: whether
 * links are within a process), and the rows (fuzz_tables.h); the file so
 * made is read every way the load reads one into a trace and the analyses
 * over it, or one clean error. Never a crash, a leak or a hang. */
#include "config.h"

#include "load/rocprof_detect.h"

#include "fuzz_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct sqltable *table(int t)
{
	return rocprof_table((enum rocprof_table)t);
}

static const char *type(int t, unsigned c, int drop)
{
	(void)t;
	(void)c;
	(void)drop;
	return "";
}

static const struct fuzz_schema schema = {
	ROCPROF_NTABLES,
	table,
	type,
	/* KERN, which is not read. */
	"CREATE TABLE KERN (\"Index\" INTEGER, \"KernelName\" TEXT); INSERT INTO KERN VALUES (1, 'k')",
	/* Indexes and processes that meet, a time near 2^62 ns. */
	{ 1, 517, 0, ((int64_t)1 << 62) - 1 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path("results.db");
	if (path && make_file(data, size, &schema, path) == 0)
		read_every_way(path);
	return 0;
}

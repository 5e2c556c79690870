/* A JSON file's bytes (load/instream.h) handed to yajl's parser in
 * chunks: what the JSON readers share of reading a stream. */
#ifndef RPDTOP_JSONSTREAM_H
#define RPDTOP_JSONSTREAM_H

#include <yajl/yajl_parse.h>

#include "load/instream.h"
#include "util/error.h"

/* Parse the stream to its end with the callbacks cb over ctx (a byte
 * order mark at its start passed over; memory through xalloc). 0 when it
 * is valid JSON; -1 when reading failed (*err says why), when a callback
 * stopped the parse and set *failed (*err is its own), or else when the
 * JSON is not valid (*err names the byte at fault, counted from 1). */
int json_stream(struct instream *in, const char *path, const yajl_callbacks *cb, void *ctx, const int *failed,
		struct rpd_error *err);

#endif

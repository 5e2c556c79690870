/* Decoding LZ4 frames (the format of lz4's command line and of
 * LZ4F_compressFrame), as the LZ4 variant of rocpd stores its JSON columns.
 * Only decoding, only what a frame may hold; every length is checked, so
 * a damaged blob is an error, never a read or write out of bounds. */
#ifndef RPDTOP_LZ4_H
#define RPDTOP_LZ4_H

#include <stddef.h>
#include <stdint.h>

/* Decode the frame in [in, in + n) into out (at most cap bytes); *len gets
 * the bytes written. Returns 0, or -1 for a damaged frame or one that
 * does not fit. */
int lz4_frame_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap, size_t *len);

#endif

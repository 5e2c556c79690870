/* A fast 64-bit hash of a block of bytes (XXH64's rounds): checks that a
 * file read back holds what was written, at about the speed memory is
 * read. Not for hostile input: anyone who can write the file can make it
 * match. */
#ifndef RPDTOP_UTIL_HASH64_H
#define RPDTOP_UTIL_HASH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t hash64(const void *p, size_t n, uint64_t seed);

#endif

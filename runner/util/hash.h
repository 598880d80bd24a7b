/* SPDX-License-Identifier: MIT */
/*
 * hash.h - hashing: SHA-256 (struct hasher) over a sequence of inputs, and
 * splitmix64, a fixed, portable sequence of numbers.
 */
#ifndef UMLRUN_UTIL_HASH_H
#define UMLRUN_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * splitmix64: the next number of a fixed, portable sequence (state is the
 * seed, advanced); splitmix64_mix is its finaliser alone, a cheap
 * avalanche of x's bits.
 */
uint64_t splitmix64_next(uint64_t *state);
uint64_t splitmix64_mix(uint64_t x);

/* SHA-256 (OpenSSL's libcrypto) over a sequence of inputs. */
struct hasher;
struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
void hasher_add_str(struct hasher *h, const char *s); /* includes the NUL */
void hasher_final(struct hasher *h, char hex[65]);    /* frees h */

#endif

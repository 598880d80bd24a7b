/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what every harness under tests/fuzz/ shares: libFuzzer's entry
 * point and expect(), an invariant that must hold for every input.
 */
#ifndef UMLRUN_FUZZ_H
#define UMLRUN_FUZZ_H

/* Before any system header: the code under test is GNU C (asprintf...). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant that failed: say which, and crash so libFuzzer keeps the input. */
#define expect(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);        \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#endif

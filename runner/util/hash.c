// SPDX-License-Identifier: MIT
/*
 * hash.c - hashing: SHA-256 through libcrypto, splitmix64.
 */
#define _GNU_SOURCE
#include "hash.h"

#include "alloc.h"
#include "msg.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

struct hasher {
	EVP_MD_CTX *ctx;
};

struct hasher *hasher_new(void)
{
	struct hasher *h = xmalloc(sizeof(*h));

	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL))
		die(EXIT_INFRA, "cannot initialise SHA-256");
	return h;
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

void hasher_add_str(struct hasher *h, const char *s)
{
	hasher_add(h, s, strlen(s) + 1);
}

void hasher_final(struct hasher *h, char hex[65])
{
	unsigned char md[32];
	unsigned int len = 0;

	EVP_DigestFinal_ex(h->ctx, md, &len);
	for (unsigned int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

uint64_t splitmix64_mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t splitmix64_next(uint64_t *state)
{
	return splitmix64_mix(*state += 0x9e3779b97f4a7c15ULL);
}

// SPDX-License-Identifier: MIT
/*
 * static-nss.c - stand-ins for the name lookups that statically linked
 * libnl drags into hwsimctl.
 *
 * libnl can turn protocol numbers and addresses into names through glibc's
 * NSS (getprotobyname, getprotobynumber, getaddrinfo). In a static program
 * glibc would load NSS modules of its own version at run time, which the
 * guest does not have, and the linker warns about it on every build.
 * hwsimctl never asks for a name, so the Makefile links it with
 * -Wl,--wrap for exactly these three symbols, and these answers "not
 * found" (which libnl handles: it prints numbers instead) keep glibc's
 * lookups, and their warnings, out. Any other warning still shows.
 */
#include <netdb.h>
#include <stddef.h>

struct protoent *__wrap_getprotobyname(const char *name);
struct protoent *__wrap_getprotobynumber(int proto);
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res);

struct protoent *__wrap_getprotobyname(const char *name)
{
	(void)name;
	return NULL;
}

struct protoent *__wrap_getprotobynumber(int proto)
{
	(void)proto;
	return NULL;
}

int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
}

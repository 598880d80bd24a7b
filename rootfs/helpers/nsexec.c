// SPDX-License-Identifier: MIT
/*
 * nsexec - run a command in a named network namespace of the guest:
 *
 *   nsexec NS CMD [ARG...]
 *
 * the same as `hwsimctl exec NS CMD...` and as `ip netns exec` (its own
 * mount namespace, with the namespace's /sys; no /etc/netns). The wireless
 * library starts every daemon and every `wl_in` command through it, a
 * thousand times in a suite run: it links musl where the build has
 * musl-gcc, whose start in a guest costs about half of glibc's static one
 * (no CPUID probes, fewer pages to fault in; bench/percall.sh).
 *
 * Exit status: CMD's, or 2 bad usage, 1 the namespace could not be entered,
 * 127 CMD not found, 126 CMD not run.
 */
#include <stdio.h>
#include <string.h>

#include "../netns-exec.h"

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: nsexec NS CMD [ARG...]\n"
		       "Run CMD in the network namespace NS (" NETNS_DIR "/NS), as ip netns exec "
		       "does.\n");
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "nsexec: usage: nsexec NS CMD [ARG...]\n");
		return 2;
	}
	return netns_exec("nsexec", argc - 1, argv + 1);
}

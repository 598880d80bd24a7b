// SPDX-License-Identifier: MIT
/*
 * netns-exec.c - `ip netns exec`, less /etc/netns, for the guest's static
 * programs: `hwsimctl exec` and `nsexec` (rootfs/helpers/nsexec.c, the
 * one the wireless library runs: it links musl, which starts faster).
 *
 * Enter the network namespace, then a mount namespace of our own whose
 * /sys is a sysfs mounted from inside the namespace (so /sys/class/net
 * lists its interfaces), and exec the command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "netns-exec.h"

int netns_exec(const char *prog, int argc, char **argv)
{
	char path[PATH_MAX];
	int fd;

	if (argc < 2) {
		fprintf(stderr, "%s: exec needs a namespace and a command\n", prog);
		return 2;
	}
	if (!argv[0][0] || strchr(argv[0], '/') || !strcmp(argv[0], ".") ||
	    !strcmp(argv[0], "..")) {
		fprintf(stderr, "%s: not a namespace name: '%s'\n", prog, argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/%s", NETNS_DIR, argv[0]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		fprintf(stderr, "%s: cannot enter namespace %s: %s\n", prog, argv[0],
			strerror(errno));
		return 1;
	}
	close(fd);
	if (unshare(CLONE_NEWNS) < 0 || mount("", "/", NULL, MS_SLAVE | MS_REC, NULL) < 0 ||
	    (umount2("/sys", MNT_DETACH) < 0 && errno != EINVAL) ||
	    mount(argv[0], "/sys", "sysfs", 0, NULL) < 0) {
		fprintf(stderr, "%s: cannot give namespace %s its /sys: %s\n", prog, argv[0],
			strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

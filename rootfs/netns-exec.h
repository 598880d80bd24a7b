/* SPDX-License-Identifier: MIT */
#ifndef UMLRUN_NETNS_EXEC_H
#define UMLRUN_NETNS_EXEC_H

/* Where the named network namespaces are, as for `ip netns`. */
#define NETNS_DIR "/run/netns"

/*
 * netns_exec PROG NS CMD...: run CMD (argv[1] on) in the network namespace
 * NS (argv[0], a name under NETNS_DIR), as `ip netns exec` does. Only
 * returns on failure, after a line on stderr that starts with PROG: the
 * exit status to use (2 bad usage, 1 the namespace, 127 CMD not found,
 * 126 CMD not run).
 */
int netns_exec(const char *prog, int argc, char **argv);

#endif

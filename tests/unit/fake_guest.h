/* SPDX-License-Identifier: MIT */
/*
 * fake_guest.h - the guest's side of the protocol, played by a unit test's
 * own program (test_supervise.c, test_sched.c). The test stages itself as
 * STAGE/linux; started as linux is, with umlrun.test=SUITE/NAME among its
 * arguments, it calls fake_guest(), which acts as NAME says (NAME without
 * a tNNNN- prefix and .sh): rootfs/init.c's control lines on fd 4, the
 * job's output on fd 3 and stderr on fd 5, the kernel's console on fd 1,
 * and an exit as linux's.
 */
#ifndef UMLRUN_FAKE_GUEST_H
#define UMLRUN_FAKE_GUEST_H

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0) {
		/* the supervisor went away: nothing to tell */
	}
}

/* The value of the kernel parameter NAME= (e.g. "umlrun.try="), or NULL. */
static inline const char *fake_param(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], name, strlen(name)))
			return argv[i] + strlen(name);
	return NULL;
}

/*
 * Makes the stage: TMPL (a mkdtemp template) made, this program linked
 * in as TMPL/linux. 0, or -1 with errno set.
 */
static inline int fake_guest_stage(char *tmpl)
{
	char self[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	if (!mkdtemp(tmpl) || (n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return -1;
	self[n] = '\0';
	snprintf(link, sizeof(link), "%s/linux", tmpl);
	return symlink(self, link);
}

static inline bool fake_guest_called(int argc, char **argv)
{
	return fake_param(argc, argv, "umlrun.test=") != NULL;
}

/*
 * Mode hwsim, and hwsim-retry, hwsim-after-CASE (what follows a batch of
 * hostap's cases, runner/run/hwsim.h): the cases its file names after
 * `hwsim_cases`, read from the stage as the guest reads its test file,
 * one result each. In a batch (mode hwsim itself) case seedS fails when
 * the guest's seed is S, case first fails in the first batch to start
 * (which makes STAGE/hwsim-first) and case later in the others; in what
 * follows it every case passes.
 */
static inline int fake_hwsim(int argc, char **argv, bool batch)
{
	const char *root = fake_param(argc, argv, "hostfs=");
	const char *suite = fake_param(argc, argv, "umlrun.suite=");
	const char *test = fake_param(argc, argv, "umlrun.test=");
	const char *seed = fake_param(argc, argv, "umlrun.seed=");
	char path[PATH_MAX], text[4096], out[8192], word[128];
	const char *p;
	bool first = false, failed = false;
	size_t len = 0;
	int fd, n = 0;
	ssize_t got;

	snprintf(path, sizeof(path), "%s/%s/%s", root ? root : ".", suite ? suite : "", test);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (got = read(fd, text, sizeof(text) - 1)) < 0)
		return 98;
	close(fd);
	text[got] = '\0';
	if (batch) {
		snprintf(path, sizeof(path), "%s/../hwsim-first", root ? root : ".");
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		first = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	say(4, "begin sim=0.000000000\n");
	p = strstr(text, "hwsim_cases");
	for (p = p ? p + strlen("hwsim_cases") : ""; *(p += strspn(p, " \t\\\n"));) {
		size_t l = strcspn(p, " \t\\\n");
		bool fails;

		snprintf(word, sizeof(word), "%.*s", (int)l, p);
		p += l;
		fails = batch &&
			((!strncmp(word, "seed", 4) && seed && !strcmp(word + 4, seed)) ||
			 (!strcmp(word, "first") && first) || (!strcmp(word, "later") && !first));
		failed |= fails;
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s %d %s\n",
					fails ? "not ok" : "ok", ++n, word);
		if (len >= sizeof(out))
			return 97;
	}
	say(3, "KTAP version 1\n");
	snprintf(word, sizeof(word), "1..%d\n", n);
	say(3, word);
	say(3, out);
	say(4, failed ? "end exit=1 sim=1.000000000\n" : "end exit=0 sim=1.000000000\n");
	return 0;
}

static inline int fake_guest(int argc, char **argv)
{
	const char *try = fake_param(argc, argv, "umlrun.try=");
	char mode[64];
	const char *p = strrchr(fake_param(argc, argv, "umlrun.test="), '/');
	size_t n;

	p = p ? p + 1 : "";
	if (p[0] == 't' && strspn(p + 1, "0123456789") == 4 && p[5] == '-')
		p += 6;
	n = strcspn(p, ".");
	snprintf(mode, sizeof(mode), "%.*s", (int)n, p);
	if (!strcmp(mode, "pass")) {
		say(1, "Linux version 0.0-fake\n");
		say(4, "begin sim=0.000000000\n");
		say(3, "KTAP version 1\n1..1\nok 1 fake\n");
		say(5, "a line on stderr\n");
		say(4, "end exit=0 sim=1.250000000 forks=3 pgfault=9\n");
		say(1, "reboot: Power down\n");
		return 0;
	}
	if (!strcmp(mode, "exit7")) {
		say(4, "begin sim=0.000000000\n");
		say(4, "end exit=7 sim=2.000000000\n");
		return 0;
	}
	if (!strcmp(mode, "signal")) {
		say(4, "begin sim=0.000000000\n");
		say(4, "end signal=9 sim=0.500000000\n");
		return 0;
	}
	if (!strcmp(mode, "simlimit")) {
		say(4, "begin sim=0.000000000\n");
		say(4, "end timeout=5 sim=5.000000000\n");
		return 0;
	}
	if (!strcmp(mode, "forged")) {
		/* Numbers no init writes: each line ignored, then silence. */
		say(4, "begin sim=0.000000000\n");
		say(4, "end exit=999 sim=1.0\n");
		say(4, "end exit=0 sim=-3\n");
		say(4, "end timeout=0 sim=1.0\n");
		return 0;
	}
	if (!strcmp(mode, "panic")) {
		say(4, "begin sim=0.000000000\n");
		say(1, "Kernel panic - not syncing: fake panic\n");
		return 1;
	}
	if (!strcmp(mode, "hang")) {
		say(4, "begin sim=0.000000000\n");
		for (;;)
			pause();
	}
	if (!strcmp(mode, "silent")) {
		say(4, "begin sim=0.000000000\n");
		return 0;
	}
	if (!strcmp(mode, "initerror")) {
		say(4, "error cannot mount the results: fake\n");
		return 0;
	}
	if (!strcmp(mode, "killed")) {
		say(4, "begin sim=0.000000000\n");
		raise(SIGKILL);
	}
	if (!strcmp(mode, "split")) {
		/* The end line in pieces, across writes. */
		say(4, "begin sim=0.000000000\nend ex");
		usleep(20000);
		say(4, "it=4 sim=3.5");
		usleep(20000);
		say(4, "00000000\n");
		return 0;
	}
	if (!strcmp(mode, "fail")) {
		say(4, "begin sim=0.000000000\n");
		say(3, "KTAP version 1\n1..1\nnot ok 1 fake\n");
		say(4, "end exit=1 sim=1.000000000\n");
		return 0;
	}
	if (!strcmp(mode, "flaky")) {
		/* Fails the first time (no umlrun.try=, or 1), passes on a retry. */
		bool again = try && atoi(try) > 1;

		say(4, "begin sim=0.000000000\n");
		say(3, again ? "KTAP version 1\n1..1\nok 1 fake\n"
			     : "KTAP version 1\n1..1\nnot ok 1 fake\n");
		say(4, again ? "end exit=0 sim=1.000000000\n" : "end exit=1 sim=1.000000000\n");
		return 0;
	}
	if (!strcmp(mode, "random")) {
		/* A pass whose output differs from run to run (the host's clock). */
		struct timespec ts;
		char line[64];

		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(line, sizeof(line), "# at %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
		say(4, "begin sim=0.000000000\n");
		say(3, "KTAP version 1\n1..1\n");
		say(3, line);
		say(3, "ok 1 fake\n");
		say(4, "end exit=0 sim=1.000000000\n");
		return 0;
	}
	if (!strncmp(mode, "hwsim", 5))
		return fake_hwsim(argc, argv, !strcmp(mode, "hwsim"));
	return 99;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * cmd_kselftest.c - umlrun kselftest: the kernel's selftests of each
 * TARGET, built from the source of the kernel in use, as generated
 * suites that run_session runs (docs/kselftest.md).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run.h"
#include "commands.h"
#include "kselftest.h"

/* The generated kselftest suites, removed however umlrun ends. */
static char *live_kselftest;

static void remove_live_kselftest(void)
{
	if (live_kselftest)
		rm_rf(live_kselftest);
}

/* Builds TARGET's selftests (or finds them cached) and writes its suite. */
static char *prepare_kselftest(struct session *s, const char *tree, const char *identity,
			       const char *target)
{
	struct kselftest_build_opts ko = {
		.tree = tree,
		.identity = identity,
		.target = target,
		.jobs = s->o->make_jobs ? s->o->make_jobs : cpus_usable(),
		.progress = isatty(2),
		.say = say_progress,
	};
	_cleanup_free_ char *kconfig_path = xasprintf("%s/config", s->kernel.dir);
	_cleanup_free_ char *kconfig = NULL;
	_cleanup_free_ char *dir = NULL;
	struct uerr e;
	bool built;

	/* Some programs need an option the kernel may lack (an RTC). */
	if (read_file(kconfig_path, &kconfig, NULL) < 0)
		kconfig = NULL;
	/*
	 * The breaker ends a clock poller after 200,000 reads: about 5 s of
	 * wall time a program under the seccomp userspace, several times that
	 * under ptrace (6.1's change_skew: 115 s), where the pollers keep
	 * their simulated cost instead.
	 */
	if (kselftest_build(&ko, &dir, &built, &e) < 0 ||
	    kselftest_suite(live_kselftest, target, tree, dir, s->o->mode, kconfig,
			    s->kernel.has_cpu_cost, s->kernel.has_stall_wall && session_seccomp(s),
			    &e) < 0)
		uerr_die(&e);
	return kselftest_suite_name(target);
}

/*
 * kselftest: the kernel's selftests of each TARGET, built from the source
 * of the kernel in use, as generated suites run the way 'run --suite-dir'
 * runs a folder of suites (docs/kselftest.md).
 */
int cmd_kselftest(const struct opts *o)
{
	static char *const fallback[] = { KSELFTEST_DEFAULT_TARGET, NULL };
	char *const *targets = o->nargs ? o->args : fallback;
	int ntargets = o->nargs ? o->nargs : 1;
	struct opts run = *o;
	struct session s = { .o = &run };
	_cleanup_free_ char *tree = NULL;
	_cleanup_free_ char *identity = NULL;
	char **suites = xcalloc((size_t)ntargets + 1, sizeof(char *));
	struct uerr e;
	int code;

	find_project(&s);
	check_inputs(&s);
	prepare_kernel(&s);
	if (kselftest_source(s.kernel.dir, &tree, &identity, &e) < 0)
		uerr_die(&e);
	for (int i = 0; i < ntargets; i++) {
		size_t len = strlen(targets[i]);

		/* timers/ as a shell completes a folder's name: the target timers. */
		while (len > 1 && targets[i][len - 1] == '/')
			targets[i][--len] = '\0';
		if (kselftest_check_target(tree, targets[i], &e) < 0)
			uerr_die(&e);
	}
	if (kselftest_suites_make(&live_kselftest, &e) < 0)
		uerr_die(&e);
	atexit(remove_live_kselftest);
	scratch_push(live_kselftest);
	for (int i = 0; i < ntargets; i++)
		suites[i] = prepare_kselftest(&s, tree, identity, targets[i]);
	scratch_pop(live_kselftest);
	run.suite_dir = live_kselftest;
	run.args = suites;
	run.nargs = ntargets;
	/* --seeds: the replay line builds the same targets, its --filter picks the program. */
	s.replay_select = targets;
	code = run_session(&s);
	rm_rf(live_kselftest);
	free(live_kselftest);
	live_kselftest = NULL;
	strv_free(suites);
	return code;
}

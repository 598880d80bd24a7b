// SPDX-License-Identifier: MIT
/*
 * test_replay.c - the command --seeds prints to replay its first failure:
 * the same command and options, the seed, and the one test, picked as
 * that command can pick it.
 */
#define _GNU_SOURCE
#include "cmd_run.h"
#include "options.h"

#include "tap.h"

/* replay_command for argv's options, test id and seed 3; NULL if argv is refused. */
static char *replay(char **argv, char *const *select, const char *id)
{
	struct opts o;
	struct session s = { .o = &o, .start_secs = 1700000000, .replay_select = select };
	struct test t = { .id = (char *)id };
	struct uerr e;
	int argc = 0;
	char *line;

	while (argv[argc])
		argc++;
	if (opts_parse(argc, argv, &o, &e) < 0) {
		diag("refused: %s", e.msg);
		return NULL;
	}
	line = replay_command(&s, &t, 3);
	opts_free(&o);
	return line;
}

static void test_run(void)
{
	char *plain[] = {
		"umlrun",	"run",	 "-q", "-j2", "--suite-dir=tests/integration/suites",
		"--seeds=3-10", "iseed", NULL
	};
	char *selecting[] = { "umlrun",	     "run",	     "--filter",    "iseed/*",
			      "--shard",     "2/3",	     "--durations", "d.txt",
			      "--shuffle=5", "--exclude=x*", "--see=3-10",  "-vj",
			      "2",	     "iseed",	     NULL };
	char *rerun[] = { "umlrun", "run", "--rerun-failed", "--seeds", "1-4", "-q", NULL };
	char *start[] = { "umlrun",	 "run",		  "--start=now", "--start", "now",
			  "--seeds=1-2", "--time-travel", "inf-cpu",	 "--",	    "iseed",
			  NULL };
	char *quoted[] = { "umlrun", "run", "--suite-dir=my suites", "--seeds=1-2", NULL };
	_cleanup_free_ char *a = replay(plain, NULL, "iseed/t0001-coin.sh");
	_cleanup_free_ char *b = replay(selecting, NULL, "iseed/t0001-coin.sh");
	_cleanup_free_ char *c = replay(rerun, NULL, "iseed/t0001-coin.sh");
	_cleanup_free_ char *d = replay(start, NULL, "iseed/t0001-coin.sh");
	_cleanup_free_ char *f = replay(quoted, NULL, "s/t0001-a.sh");

	is_str(a,
	       "umlrun run -q -j2 --suite-dir=tests/integration/suites --random-seed=3 "
	       "iseed/t0001-coin.sh",
	       "run: its options, the seed for the range, the test's id for its suites");
	is_str(b, "umlrun run -vj 2 --random-seed=3 iseed/t0001-coin.sh",
	       "run: no option that chooses tests, in any form (a shard could leave the "
	       "test out)");
	is_str(c, "umlrun run -q --random-seed=3 iseed/t0001-coin.sh",
	       "run: no --rerun-failed, which takes no test named (and the last run "
	       "is this one)");
	is_str(d,
	       "umlrun run --start=1700000000 --start=1700000000 --time-travel inf-cpu "
	       "--random-seed=3 iseed/t0001-coin.sh",
	       "run: --start=now as the run's seconds, in both forms; no \"--\" before "
	       "the seed");
	is_str(f, "umlrun run '--suite-dir=my suites' --random-seed=3 s/t0001-a.sh",
	       "run: a word a shell would split is quoted");
}

static void test_kselftest(void)
{
	char *argv[] = { "umlrun",	     "kselftest", "--seeds=0-7", "-j2",
			 "--filter=*-leap*", "timers",	  "timers/",	 NULL };
	char *targets[] = { "timers", NULL };
	_cleanup_free_ char *a = replay(argv, targets, "kselftest-timers/t0003-leap-a-day.sh");

	is_str(a,
	       "umlrun kselftest -j2 --random-seed=3 "
	       "--filter=kselftest-timers/t0003-leap-a-day.sh timers",
	       "kselftest: its own command, the program by --filter among its targets");
}

static void test_hwsim(void)
{
	char *argv[] = { "umlrun",	"hwsim",    "--hostap=../hostap",
			 "--seeds=1-4", "--tshark", "--filter=*",
			 "ap_*",	"sae",	    NULL };
	char *cases[] = { "-j2", "ap_*", "sae", NULL };
	_cleanup_free_ char *a = replay(argv, cases, "hwsim/t0002-ap_open.sh");

	is_str(a,
	       "umlrun hwsim --hostap=../hostap --tshark --random-seed=3 "
	       "--filter=hwsim/t0002-ap_open.sh -j2 'ap_*' sae",
	       "hwsim: its own command, the batch by --filter among the same cases");
}

/* opt_word: what each word of the options is, whatever its form. */
static void test_opt_word(void)
{
	char *argv[] = { "umlrun", "run",     "-q", "--shard", "1/2",	    "--shu",
			 "-qvj3",  "--res=r", "-j", "4",       "--shuffle", NULL };
	const char *want[][2] = { { "quiet", NULL },  { "shard", "1/2" }, { "shuffle", NULL },
				  { NULL, "3" },      { "results", "r" }, { "jobs", "4" },
				  { "shuffle", NULL } };
	struct opts o;
	struct uerr e;
	size_t k = 0;
	bool same = opts_parse(11, argv, &o, &e) == 0;

	for (int i = 0, n; same && i < o.nopt_words; i += n, k++) {
		const char *name, *value;

		n = opt_word(&o, i, &name, &value);
		same = k < sizeof(want) / sizeof(want[0]) &&
		       !strcmp(name ? name : "-", want[k][0] ? want[k][0] : "-") &&
		       !strcmp(value ? value : "-", want[k][1] ? want[k][1] : "-");
		if (!same)
			diag("word %d: got %s=%s", i, name ? name : "(none)",
			     value ? value : "(none)");
	}
	ok(same && k == sizeof(want) / sizeof(want[0]),
	   "opt_word: long, abbreviated, short and clustered options, values apart or not");
	opts_free(&o);
}

int main(void)
{
	plan(8);
	test_run();
	test_kselftest();
	test_hwsim();
	test_opt_word();
	return done_testing();
}

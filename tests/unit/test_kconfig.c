// SPDX-License-Identifier: MIT
/* test_kconfig.c - config fragments and the check after olddefconfig. */
#define _GNU_SOURCE
#include "kconfig.h"

#include "tap.h"

static const struct kreq *find(const struct kreq_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].name, name))
			return &set->v[i];
	return NULL;
}

/* The request's value and origin, or "(missing)". */
static const char *value_of(const struct kreq_set *set, const char *name)
{
	const struct kreq *r = find(set, name);

	return r ? r->value : "(missing)";
}

static const char *origin_of(const struct kreq_set *set, const char *name)
{
	const struct kreq *r = find(set, name);

	return r ? r->origin : "(missing)";
}

static const char fragment[] = "# Time travel, for the timer tests.\n"
			       "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n"
			       "\n"
			       "# CONFIG_DEBUG_INFO is not set\n"
			       "CONFIG_CMDLINE=\"console=tty0 quiet\"\n"
			       "CONFIG_LOG_BUF_SHIFT=17\n"
			       "CONFIG_MAC80211_HWSIM=m\n"
			       "CONFIG_HZ_100=y   \r\n"
			       "# CONFIG_FOO is a comment, not a request\n";

static void test_parse(void)
{
	struct kreq_set set = { 0 };
	struct uerr e = { 0 };

	is_int(kreq_parse(&set, fragment, "time.config", false, &e), 0, "parse: a good fragment");
	is_int((long long)set.n, 6, "parse: six requests, comments skipped");
	is_str(value_of(&set, "CONFIG_UML_TIME_TRAVEL_SUPPORT"), "y", "parse: =y");
	is_str(value_of(&set, "CONFIG_DEBUG_INFO"), "n", "parse: is not set gives n");
	is_str(value_of(&set, "CONFIG_CMDLINE"), "\"console=tty0 quiet\"",
	       "parse: a string kept quoted, spaces and '=' inside");
	is_str(value_of(&set, "CONFIG_LOG_BUF_SHIFT"), "17", "parse: a number");
	is_str(value_of(&set, "CONFIG_MAC80211_HWSIM"), "m", "parse: =m");
	is_str(value_of(&set, "CONFIG_HZ_100"), "y", "parse: trailing blanks and CR dropped");
	ok(!find(&set, "CONFIG_FOO"), "parse: an ordinary comment is no request");
	is_str(origin_of(&set, "CONFIG_UML_TIME_TRAVEL_SUPPORT"), "time.config:2",
	       "parse: origin is file:line");
	is_str(origin_of(&set, "CONFIG_DEBUG_INFO"), "time.config:4",
	       "parse: origin of an unset option");
	ok(!find(&set, "CONFIG_CMDLINE")->user, "parse: project fragment is not the user's");
	kreq_free(&set);
	is_int((long long)set.n, 0, "kreq_free empties the set");
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"CONFIG_A=y\nFOO=y\n",		      /* not CONFIG_ */
		"CONFIG_A=y\nCONFIG_B\n",	      /* no value */
		"CONFIG_A=y\nCONFIG_B=\n",	      /* empty value */
		"CONFIG_A=y\nCONFIG_=y\n",	      /* no name */
		"CONFIG_A=y\nCONFIG_B-C=y\n",	      /* bad name */
		"CONFIG_A=y\n# CONFIG_ is not set\n", /* no name, unset */
		"CONFIG_A=y\n  CONFIG_B=y\n",	      /* indented */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kreq_set set = { 0 };
		struct uerr e = { 0 };
		int r = kreq_parse(&set, bad[i], "uml-config/x.config", false, &e);

		if (!ok(r < 0 && e.code == EXIT_INFRA && strstr(e.msg, "uml-config/x.config:2:"),
			"malformed project line %zu: exit 3, names file:2", i))
			diag("  got: r=%d code=%d msg='%s'", r, e.code, e.msg);
		kreq_free(&set);
	}
	{
		struct kreq_set set = { 0 };
		struct uerr e = { 0 };
		int r = kreq_parse(&set, "\n\n# mine\nWIFI=y\n", "my.config", true, &e);

		is_int(r, -1, "malformed user line: fails");
		is_int(e.code, EXIT_USAGE, "malformed user line: exit 2");
		has_str(e.msg, "my.config:4:", "malformed user line: names file:line");
		has_str(e.msg, "WIFI=y", "malformed user line: quotes the line");
		kreq_free(&set);
	}
}

static void test_override(void)
{
	struct kreq_set set = { 0 };
	struct uerr e = { 0 };

	kreq_parse(&set, "CONFIG_A=y\nCONFIG_B=m\n", "base.config", false, &e);
	kreq_parse(&set, "# CONFIG_A is not set\nCONFIG_B=y\nCONFIG_C=y\n", "user.config", true,
		   &e);
	is_int((long long)set.n, 3, "override: one request per name");
	is_str(value_of(&set, "CONFIG_A"), "n", "override: later fragment unsets");
	is_str(value_of(&set, "CONFIG_B"), "y", "override: later value wins");
	is_str(origin_of(&set, "CONFIG_A"), "user.config:1", "override: origin follows");
	ok(find(&set, "CONFIG_A")->user, "override: user flag follows");
	kreq_free(&set);
}

static void test_verify(void)
{
	static const char dotconfig[] = "#\n# Automatically generated file; DO NOT EDIT.\n#\n"
					"CONFIG_UML=y\n"
					"CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n"
					"CONFIG_CMDLINE=\"console=tty0 quiet\"\n"
					"CONFIG_LOG_BUF_SHIFT=17\n"
					"CONFIG_MAC80211_HWSIM=m\n"
					"CONFIG_HZ_100=y\n"
					"# CONFIG_DEBUG_INFO is not set\n"
					"CONFIG_DEBUG_INFO_BTF=y\n";
	struct kreq_set set = { 0 };
	struct uerr e = { 0 };
	bool user_lost = true;
	char *lost;

	kreq_parse(&set, fragment, "time.config", false, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	is_str(lost, NULL, "verify: all survived gives NULL");
	ok(!user_lost, "verify: nothing lost, user_lost false");
	free(lost);

	/* =n is satisfied by an option .config does not mention at all. */
	kreq_parse(&set, "# CONFIG_NO_SUCH_THING is not set\n", "off.config", false, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	is_str(lost, NULL, "verify: =n satisfied by absence");
	free(lost);

	/* A prefix of another option's name is a different option. */
	kreq_parse(&set, "CONFIG_DEBUG_INFO_BT=y\n", "prefix.config", false, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	has_str(lost, "CONFIG_DEBUG_INFO_BT=y", "verify: a name prefix does not match");
	ok(!user_lost, "verify: a project loss is not the user's");
	free(lost);
	kreq_free(&set);

	kreq_parse(&set, "CONFIG_UML=y\n\nCONFIG_MISSING_OPT=y\n", "proj.config", false, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	has_str(lost, "CONFIG_MISSING_OPT=y", "verify: missing option named");
	has_str(lost, "proj.config:3", "verify: its origin file:line");
	has_str(lost, "no such option", "verify: says why it may be gone");
	lacks_str(lost, "CONFIG_UML=", "verify: survivors not named");
	ok(!user_lost, "verify: project fragment: user_lost false");
	free(lost);
	kreq_free(&set);

	kreq_parse(&set, "CONFIG_HZ_100=m\nCONFIG_LOG_BUF_SHIFT=18\n", "mine.config", true, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	has_str(lost, "CONFIG_HZ_100=m (mine.config:1) became y", "verify: changed value shown");
	has_str(lost, "CONFIG_LOG_BUF_SHIFT=18 (mine.config:2) became 17",
		"verify: every lost option named");
	ok(user_lost, "verify: user fragment lost something: user_lost");
	free(lost);
	kreq_free(&set);

	kreq_parse(&set, "CONFIG_DEBUG_INFO_BTF=n\n", "x.config", false, &e);
	kreq_parse(&set, "# CONFIG_CMDLINE is not set\n", "y.config", false, &e);
	lost = kreq_verify(&set, dotconfig, &user_lost);
	has_str(lost, "CONFIG_DEBUG_INFO_BTF", "verify: =n but set: lost");
	has_str(lost, "CONFIG_CMDLINE=n (y.config:1)", "verify: unset request but set: lost");
	free(lost);
	kreq_free(&set);
}

static void test_add_fragment(void)
{
	char dir[] = "/tmp/umlrun-kconfig.XXXXXX";
	_cleanup_free_ char *path = NULL;
	struct kreq_set set = { 0 };
	struct uerr e = { 0 };

	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	path = xasprintf("%s/net.config", dir);
	write_file_atomic(path, "CONFIG_NET=y\n", 13);
	is_int(kreq_add_fragment(&set, path, true, &e), 0, "add_fragment: reads a file");
	ok(set.n == 1 && set.v[0].user, "add_fragment: user request");
	kreq_free(&set);
	free(path);
	path = xasprintf("%s/none.config", dir);
	is_int(kreq_add_fragment(&set, path, true, &e), -1, "add_fragment: missing file fails");
	is_int(e.code, EXIT_USAGE, "add_fragment: missing user fragment: exit 2");
	has_str(e.msg, path, "add_fragment: names the file");
	kreq_add_fragment(&set, path, false, &e);
	is_int(e.code, EXIT_INFRA, "add_fragment: missing project fragment: exit 3");
	kreq_free(&set);
	rm_rf(dir);
}

int main(void)
{
	plan(50);
	test_parse();
	test_malformed();
	test_override();
	test_verify();
	test_add_fragment();
	return done_testing();
}

// SPDX-License-Identifier: MIT
/* test_sched.c - a test file's wall-clock limit in each time-travel mode. */
#define _GNU_SOURCE
#include "sched.h"

#include "tap.h"

static void test_wall_limit(void)
{
	ok(sched_wall_limit(TT_INF_CPU, 0, 120, 600) == 120,
	   "inf-cpu: the settings' wall limit, whatever the simulated one");
	ok(sched_wall_limit(TT_OFF, 0, 120, 130) == 130 + SCHED_WALL_MARGIN,
	   "off: a 130 s time limit (leap-a-day) raises the 120 s wall limit to it plus a margin");
	ok(sched_wall_limit(TT_BASIC, 0, 120, 600) == 600 + SCHED_WALL_MARGIN,
	   "basic: the wall limit follows the time limit too");
	ok(sched_wall_limit(TT_OFF, 0, 120, 45) == 120,
	   "off: a short time limit keeps the settings' wall limit (never lowered)");
	ok(sched_wall_limit(TT_OFF, 0, 3600, 600) == 3600,
	   "off: a settings wall_timeout= above the time limit stays");
	ok(sched_wall_limit(TT_OFF, 60, 120, 600) == 60,
	   "off: an explicit --wall-timeout wins, even below the time limit");
	ok(sched_wall_limit(TT_INF_CPU, 500, 120, 600) == 500, "inf-cpu: --wall-timeout wins");
	ok(sched_wall_limit(TT_OFF, 0, 120, 0) == 120,
	   "off: no time limit, the settings' wall limit");
}

int main(void)
{
	test_wall_limit();
	return done_testing();
}

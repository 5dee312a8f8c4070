/*
 * common.c: the error state is per thread (as libgit2 keeps
 * git_error_last()), so the registry front's thread can set and clear
 * errors while the main thread holds one it is about to report.
 */
#include "pmbench/common.h"

#include <pthread.h>

#include "check.h"

struct other {
	pthread_barrier_t *step;
	char seen_first[64]; /* what it saw before setting its own */
	char seen_own[64];   /* its own, after the main thread set again */
};

/*
 * The other thread: see nothing, set its own, wait while the main
 * thread sets and checks its own, then read its own back and clear it.
 */
static void *other_main(void *arg)
{
	struct other *o = arg;

	snprintf(o->seen_first, sizeof(o->seen_first), "%s",
		 pmbench_error_last());
	pmbench_error_set("front: %s", "the backend went away");
	pthread_barrier_wait(o->step);
	pthread_barrier_wait(o->step);
	snprintf(o->seen_own, sizeof(o->seen_own), "%s", pmbench_error_last());
	pmbench_error_clear();
	return NULL;
}

TEST(error_per_thread)
{
	pthread_barrier_t step;
	pthread_t t;
	struct other o = { .step = &step };

	pmbench_error_clear();
	pmbench_error_set("cannot prepare scenario '%s'", "clean");
	CHECK_INT(pthread_barrier_init(&step, NULL, 2), 0);
	CHECK_INT(pthread_create(&t, NULL, other_main, &o), 0);
	pthread_barrier_wait(&step);
	/* The other thread set its own: ours is unchanged. */
	CHECK_STR(pmbench_error_last(), "cannot prepare scenario 'clean'");
	pmbench_error_prefix("round %d", 2);
	pthread_barrier_wait(&step);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&step);
	/* A new thread starts with none; its clear left ours. */
	CHECK_STR(o.seen_first, "unknown error");
	CHECK_STR(o.seen_own, "front: the backend went away");
	CHECK_STR(pmbench_error_last(),
		  "round 2: cannot prepare scenario 'clean'");
	pmbench_error_clear();
	CHECK_STR(pmbench_error_last(), "unknown error");
}

CHECK_MAIN(CASE(error_per_thread))

/*
 * `--scripts none|all` confirmed by each run's process tree
 * (scriptcheck.h): the lifecycle scripts the trace saw against the
 * choice, folded into the run's state check.
 */
#include "pmbench/common.h"

#include "pmbench/phases.h"
#include "pmbench/scenario.h"
#include "pmbench/scriptcheck.h"

/* How many names a reason lists before "and N more". */
#define NAMES_MAX 5

/* Whether a lifecycle script of package `name` ran in `ph`. */
static int script_ran(const struct pmbench_phases *ph, const char *name,
		      size_t len)
{
	for (size_t i = 0; i < ph->scripts_nr; i++) {
		const char *p = ph->scripts[i].package;

		if (p && strlen(p) == len && !strncmp(p, name, len))
			return 1;
	}
	return 0;
}

/* "esbuild postinstall, ..." of the scripts that ran, into `out`. */
static void ran_none(struct pmbench_buf *why, const struct pmbench_phases *ph)
{
	pmbench_buf_addf(why, "--scripts none: %zu lifecycle script%s ran: ",
			 ph->scripts_nr, ph->scripts_nr == 1 ? "" : "s");
	for (size_t i = 0; i < ph->scripts_nr && i < NAMES_MAX; i++)
		pmbench_buf_addf(why, "%s%s %s", i ? ", " : "",
				 *ph->scripts[i].package
					 ? ph->scripts[i].package
					 : "(unnamed)",
				 ph->scripts[i].event);
	if (ph->scripts_nr > NAMES_MAX)
		pmbench_buf_addf(why, " and %zu more",
				 ph->scripts_nr - NAMES_MAX);
}

/* The packages of `packages` that ran no script, into `why`; how many. */
static size_t missed_all(struct pmbench_buf *why,
			 const struct pmbench_phases *ph,
			 const struct pmbench_strvec *packages)
{
	struct pmbench_buf names = PMBENCH_BUF_INIT;
	size_t missed = 0;

	for (size_t i = 0; i < packages->nr; i++) {
		const char *p = packages->v[i];
		const char *at = strrchr(p, '@');
		size_t len = at && at != p ? (size_t)(at - p) : strlen(p);

		if (script_ran(ph, p, len))
			continue;
		if (missed++ < NAMES_MAX)
			pmbench_buf_addf(&names, "%s%s", missed > 1 ? ", " : "",
					 p);
	}
	if (missed)
		pmbench_buf_addf(why,
				 "--scripts all: %zu of %zu packages with an "
				 "install script ran none: %s%s",
				 missed, packages->nr, names.ptr,
				 missed > NAMES_MAX ? " and more" : "");
	pmbench_buf_release(&names);
	return missed;
}

int pmbench_scripts_check(struct pmbench_buf *why,
			  const struct pmbench_sample *s, unsigned state,
			  enum pmbench_scripts_choice choice,
			  const struct pmbench_strvec *packages)
{
	const struct pmbench_phases *ph = s->phases;

	if (choice == PMBENCH_SCRIPTS_AS_IS || !s->ok || !ph)
		return PMBENCH_CHECK_NONE;
	if (choice == PMBENCH_SCRIPTS_RUN_NONE) {
		if (!ph->scripts_nr)
			return PMBENCH_CHECK_PASS;
		ran_none(why, ph);
		return PMBENCH_CHECK_FAIL;
	}
	/* node_modules in place and up to date: nothing to build. */
	if (state & PMBENCH_STATE_NODE_MODULES)
		return PMBENCH_CHECK_NONE;
	return missed_all(why, ph, packages) ? PMBENCH_CHECK_FAIL
					     : PMBENCH_CHECK_PASS;
}

void pmbench_scripts_check_sample(struct pmbench_sample *s, unsigned state,
				  enum pmbench_scripts_choice choice,
				  const struct pmbench_strvec *packages)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int check = pmbench_scripts_check(&why, s, state, choice, packages);

	if (check == PMBENCH_CHECK_PASS && s->state_check == PMBENCH_CHECK_NONE)
		s->state_check = PMBENCH_CHECK_PASS;
	if (check == PMBENCH_CHECK_FAIL) {
		struct pmbench_buf all = PMBENCH_BUF_INIT;

		s->state_check = PMBENCH_CHECK_FAIL;
		if (s->state_why)
			pmbench_buf_addf(&all, "%s; ", s->state_why);
		pmbench_buf_add(&all, why.ptr, why.len);
		free(s->state_why);
		s->state_why = pmbench_buf_detach(&all);
	}
	pmbench_buf_release(&why);
}

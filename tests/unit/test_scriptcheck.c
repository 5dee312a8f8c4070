/*
 * `--scripts none|all` confirmed by a run's process tree
 * (scriptcheck.h): the lifecycle scripts a trace saw against the
 * choice, how it folds into the state check, and each PM's table entry
 * telling every choice (or refusing it, with its source).
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/phases.h"
#include "pmbench/pm.h"
#include "pmbench/result.h"
#include "pmbench/scenario.h"
#include "pmbench/scriptcheck.h"

/* A successful traced run whose tree ran `nr` scripts of `pkgs`. */
static void run_of(struct pmbench_sample *s, const char *const *pkgs, size_t nr)
{
	memset(s, 0, sizeof(*s));
	s->ok = 1;
	s->phases = pmbench_xcalloc(1, sizeof(*s->phases));
	s->phases->scripts =
		pmbench_xcalloc(nr + 1, sizeof(*s->phases->scripts));
	for (size_t i = 0; i < nr; i++) {
		s->phases->scripts[i].package = pmbench_xstrdup(pkgs[i]);
		s->phases->scripts[i].event = pmbench_xstrdup("postinstall");
	}
	s->phases->scripts_nr = nr;
}

TEST(none_means_no_lifecycle_process)
{
	static const char *const ran[] = { "esbuild", "@s/native" };
	struct pmbench_strvec pkgs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	pmbench_strvec_push(&pkgs, "esbuild@0.21.5");
	run_of(&s, ran, 0);
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_RUN_NONE,
					&pkgs),
		  PMBENCH_CHECK_PASS);
	CHECK_INT(why.len, 0);
	pmbench_sample_release(&s);
	run_of(&s, ran, 2);
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_RUN_NONE,
					&pkgs),
		  PMBENCH_CHECK_FAIL);
	CHECK_STR(why.ptr, "--scripts none: 2 lifecycle scripts ran: esbuild "
			   "postinstall, @s/native postinstall");
	/* As it comes, nothing is judged. */
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_AS_IS,
					&pkgs),
		  PMBENCH_CHECK_NONE);
	/* Folded into the state check: the failure and its reason. */
	s.state_check = PMBENCH_CHECK_PASS;
	pmbench_scripts_check_sample(&s, 0, PMBENCH_SCRIPTS_RUN_NONE, &pkgs);
	CHECK_INT(s.state_check, PMBENCH_CHECK_FAIL);
	CHECK_CONTAINS(s.state_why, "--scripts none: 2 lifecycle scripts");
	pmbench_sample_release(&s);
	pmbench_strvec_release(&pkgs);
	pmbench_buf_release(&why);
}

TEST(all_means_every_package_ran_one)
{
	static const char *const ran[] = { "esbuild" };
	struct pmbench_strvec pkgs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	unsigned nm = 0;

	pmbench_strvec_push(&pkgs, "esbuild@0.21.5");
	pmbench_strvec_push(&pkgs, "@s/native@2.0.0");
	run_of(&s, ran, 1);
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_RUN_ALL,
					&pkgs),
		  PMBENCH_CHECK_FAIL);
	CHECK_STR(why.ptr, "--scripts all: 1 of 2 packages with an install "
			   "script ran none: @s/native@2.0.0");
	pmbench_buf_reset(&why);
	pmbench_strvec_pop(&pkgs);
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_RUN_ALL,
					&pkgs),
		  PMBENCH_CHECK_PASS);
	pmbench_sample_release(&s);
	/* node_modules in place and up to date: nothing to build. */
	run_of(&s, ran, 0);
	CHECK_INT(pmbench_scenario_parse(&nm, "cache+lockfile+node_modules"),
		  0);
	CHECK_INT(pmbench_scripts_check(&why, &s, nm, PMBENCH_SCRIPTS_RUN_ALL,
					&pkgs),
		  PMBENCH_CHECK_NONE);
	/* An unjudged state check becomes a pass; a failed run is not. */
	s.state_check = PMBENCH_CHECK_NONE;
	pmbench_scripts_check_sample(&s, nm, PMBENCH_SCRIPTS_RUN_NONE, &pkgs);
	CHECK_INT(s.state_check, PMBENCH_CHECK_PASS);
	s.ok = 0;
	CHECK_INT(pmbench_scripts_check(&why, &s, 0, PMBENCH_SCRIPTS_RUN_ALL,
					&pkgs),
		  PMBENCH_CHECK_NONE);
	pmbench_sample_release(&s);
	pmbench_strvec_release(&pkgs);
	pmbench_buf_release(&why);
}

/*
 * Every PM and variant says how it is told none and all, or why it
 * cannot be, with the documentation that says it.
 */
TEST(every_pm_tells_or_refuses_each_choice)
{
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;

	for (size_t i = 0; (pm = pmbench_pm_nth(i)); i++)
		for (int c = PMBENCH_SCRIPTS_RUN_NONE;
		     c <= PMBENCH_SCRIPTS_RUN_ALL; c++) {
			const struct pmbench_pm_scripts_way *w =
				&pm->scripts_way[c];

			CHECK(w->source && !strncmp(w->source, "https://", 8));
			pmbench_buf_reset(&b);
			pmbench_pm_scripts_told(&b, pm, NULL,
						(enum pmbench_scripts_choice)c);
			CHECK(!strncmp(b.ptr, "--scripts ", 10));
			CHECK(!w->refusal || strstr(b.ptr, "not possible: "));
		}
	/* What each is told, as the table says. */
	pmbench_pm_push_scripts(&args, &env, pmbench_pm_get("npm"),
				PMBENCH_SCRIPTS_RUN_NONE);
	pmbench_pm_push_scripts(&args, &env, pmbench_pm_get("yarn-berry:pnp"),
				PMBENCH_SCRIPTS_RUN_ALL);
	pmbench_pm_push_scripts(&args, &env, pmbench_pm_get("bun"),
				PMBENCH_SCRIPTS_RUN_ALL);
	pmbench_pm_push_scripts(&args, &env, pmbench_pm_get("deno"),
				PMBENCH_SCRIPTS_RUN_ALL);
	pmbench_pm_push_scripts(&args, &env, pmbench_pm_get("pnpm"),
				PMBENCH_SCRIPTS_AS_IS);
	CHECK_INT(args.nr, 2);
	CHECK_STR(args.v[0], "--ignore-scripts");
	CHECK_STR(args.v[1], "--allow-scripts");
	CHECK_INT(env.nr, 2);
	CHECK_STR(env.v[0], "YARN_ENABLE_SCRIPTS=true");
	/* bun: its trusted list, and esbuild's postinstall not skipped. */
	CHECK_STR(env.v[1], "BUN_FEATURE_FLAG_DISABLE_IGNORE_SCRIPTS=1");
	CHECK_STR(pmbench_pm_scripts_field(pmbench_pm_get("bun"),
					   PMBENCH_SCRIPTS_RUN_ALL),
		  "trustedDependencies");
	CHECK(!pmbench_pm_scripts_field(pmbench_pm_get("bun"),
					PMBENCH_SCRIPTS_RUN_NONE));
	for (size_t i = 0; (pm = pmbench_pm_nth(i)); i++)
		CHECK(!pmbench_pm_scripts_refusal(pm, PMBENCH_SCRIPTS_RUN_ALL));
	/*
	 * bun as it comes says its optimiser skips a trusted esbuild's and
	 * sharp's postinstall, and is not counted as running them all.
	 */
	pmbench_buf_reset(&b);
	pmbench_pm_scripts_told(&b, pmbench_pm_get("bun"), "1.4.5",
				PMBENCH_SCRIPTS_AS_IS);
	CHECK_CONTAINS(b.ptr, "bun 1.4 skips even a trusted esbuild's "
			      "postinstall (linking its platform binary "
			      "instead) and sharp's (its postinstall "
			      "optimiser)");
	CHECK(!strstr(b.ptr, "runs every") &&
	      !strstr(b.ptr, "runs dependency"));
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&env);
	pmbench_buf_release(&b);
}

/*
 * pnpm under all: its side-effects cache off, and why, with pnpm's
 * documentation of the setting (as every setting told beside a choice).
 */
TEST(pnpm_all_runs_what_its_store_holds_built)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;

	for (size_t i = 0; (pm = pmbench_pm_nth(i)); i++)
		for (size_t c = 0; c < PMBENCH_ARRAY_SIZE(pm->scripts_way);
		     c++) {
			const struct pmbench_pm_scripts_way *w =
				&pm->scripts_way[c];

			CHECK(!w->why ||
			      (w->why_source &&
			       !strncmp(w->why_source, "https://", 8)));
		}
	pmbench_pm_scripts_told(&b, pmbench_pm_get("pnpm"), "12.23.0",
				PMBENCH_SCRIPTS_RUN_ALL);
	CHECK_STR(b.ptr, "--scripts all: told "
			 "pnpm_config_dangerously_allow_all_builds=true "
			 "pnpm_config_side_effects_cache=false (side-effects "
			 "cache off: under --scripts all every install script "
			 "runs; pnpm would replay a built package from its "
			 "store)");
	pmbench_buf_reset(&b);
	pmbench_pm_scripts_told(&b, pmbench_pm_get("pnpm"), "12.23.0",
				PMBENCH_SCRIPTS_AS_IS);
	CHECK_CONTAINS(b.ptr, "with a warm store replays a built package");
	pmbench_buf_release(&b);
}

TEST(choice_names)
{
	enum pmbench_scripts_choice c = PMBENCH_SCRIPTS_AS_IS;

	CHECK_INT(pmbench_scripts_choice_parse(&c, "all"), 0);
	CHECK_INT(c, PMBENCH_SCRIPTS_RUN_ALL);
	CHECK_STR(pmbench_scripts_choice_name(c), "all");
	CHECK_INT(pmbench_scripts_choice_parse(&c, "some"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "use default, none or all");
	pmbench_error_clear();
}

CHECK_MAIN(CASE(none_means_no_lifecycle_process),
	   CASE(pnpm_all_runs_what_its_store_holds_built),
	   CASE(all_means_every_package_ran_one),
	   CASE(every_pm_tells_or_refuses_each_choice), CASE(choice_names))

/*
 * `bench --explain`'s runs (explain.h): the install with the PM's own
 * timers on, its output kept as a transcript (each line with the time it
 * arrived), read by the PM's table entry.
 */
#include "pmbench/common.h"

#include "pmbench/ctx.h"
#include "pmbench/explain.h"
#include "pmbench/fs.h"
#include "pmbench/pmrun.h"
#include "pmbench/pmtimer.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"

/* What the line callback keeps. */
struct capture {
	const struct pmbench_child *c;
	struct pmbench_buf transcript;
	size_t lines;
	int full; /* PMBENCH_EXPLAIN_OUTPUT_MAX reached */
};

static void on_line(const char *line, size_t len, void *payload)
{
	struct capture *cap = payload;
	double at = (double)(pmbench_now_ns() - cap->c->t0) / 1e9;

	if (cap->transcript.len + len + 32 > PMBENCH_EXPLAIN_OUTPUT_MAX) {
		cap->full = 1;
		return;
	}
	pmbench_transcript_add(&cap->transcript, at, line, len);
	cap->lines++;
}

/* The transcript, for PMBENCH_EXPLAIN_TRANSCRIPTS (best effort). */
static void keep(const struct capture *cap, const char *label)
{
	const char *dir = getenv("PMBENCH_EXPLAIN_TRANSCRIPTS");
	struct pmbench_buf path = PMBENCH_BUF_INIT;

	if (!dir || !*dir || !label)
		return;
	pmbench_buf_addf(&path, "%s/%s.txt", dir, label);
	if (pmbench_fs_mkdirp(dir, 0755) < 0 ||
	    pmbench_fs_write_output(path.ptr, cap->transcript.ptr,
				    cap->transcript.len) < 0)
		pmbench_error_clear();
	pmbench_buf_release(&path);
}

/* The command and environment of the run: the install's, timers on. */
static void compose(struct pmbench_strvec *argv, struct pmbench_strvec *env,
		    const struct pmbench_pmrun *ps)
{
	for (size_t i = 0; i < ps->command.nr; i++)
		pmbench_strvec_push(argv, ps->command.v[i]);
	pmbench_pm_push_args(argv, ps->pm->timer_args, ps->ws.cache);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(env, ps->env.v[i]);
	pmbench_pm_push_args(env, ps->pm->timer_env, ps->ws.cache);
}

/* Read what the timers said into `out`, or say why nothing was found. */
static void read_timers(struct pmbench_explain_run *out,
			const struct pmbench_pm *pm, const struct capture *cap)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	if (!pm->timer_parse(&out->phases, cap->transcript.ptr,
			     cap->transcript.len)) {
		out->ok = 0;
		pmbench_buf_addf(&why,
				 "its output (%zu lines) held no timer line "
				 "pmbench knows for %s",
				 cap->lines, pm->name);
	}
	if (cap->full)
		pmbench_buf_addf(&why,
				 "%sits output passed %u MiB: the rest was not "
				 "read",
				 why.len ? "; " : "",
				 PMBENCH_EXPLAIN_OUTPUT_MAX >> 20);
	if (why.len)
		out->failure = pmbench_buf_detach(&why);
	pmbench_buf_release(&why);
}

int pmbench_explain_install(struct pmbench_explain_run *out,
			    struct pmbench_pmrun *ps, uint64_t timeout_ns,
			    const char *label)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT, saved;
	struct capture cap = { .c = &c, .transcript = PMBENCH_BUF_INIT };
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	int ret;

	memset(&s, 0, sizeof(s));
	if (!ps->pm->timer_parse) {
		out->failure = pmbench_xstrdup("it has no timers of its own");
		return 0;
	}
	/* As the timed install does, outside the run. */
	ret = pmbench_registry_rewrite_lockfiles(
		ps->ctx ? ps->ctx->registry : NULL, ps->ws.run_project, &what);
	pmbench_buf_release(&what);
	if (ret < 0)
		goto done;
	compose(&argv, &env, ps);
	c.on_line = on_line;
	c.payload = &cap;
	/* The PM's environment with the timers' variables, for this run. */
	saved = ps->env;
	ps->env = env;
	ret = pmbench_pmrun_exec(ps, &argv, ps->ws.run_project, timeout_ns, &s,
				 &c);
	ps->env = saved;
	out->ok = s.ok;
	out->wall_ns = s.wall_ns;
	keep(&cap, label);
	if (s.ok)
		read_timers(out, ps->pm, &cap);
	else
		out->failure =
			pmbench_xstrdup(s.failure ? s.failure : "it failed");
done:
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_strvec_release(&argv);
	pmbench_strvec_release(&env);
	pmbench_buf_release(&cap.transcript);
	return ret;
}

char *pmbench_explain_how(const struct pmbench_pmrun *ps)
{
	const struct pmbench_pm *pm = ps->pm;

	if (!pm->timer_parse)
		return pmbench_xstrdup("none: it has no timers of its own");
	return pmbench_xstrdup(pm->timer_how ? pm->timer_how : "as it is");
}

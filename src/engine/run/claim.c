/*
 * Claims: the grammar of "X install is 20x faster than Y install" (PMs,
 * versions, tasks, the factor), and the verdict on a claim from a
 * measured ratio and its interval.
 */

#include "pmbench/common.h"

#include <ctype.h>
#include <math.h>

#include "pmbench/buf.h"
#include "pmbench/claim.h"
#include "pmbench/pm.h"
#include "pmbench/strvec.h"
#include "pmbench/task.h"

/*
 * A factor no claim needs: beyond it, strtod() takes subnormal numbers
 * ("0x1p-1074") whose "%g" wording it then refuses as out of range.
 */
#define FACTOR_MIN 1e-6
#define FACTOR_MAX 1e6

/* "20", "2.5", "20x", "20×": the number, and whether an x followed. */
static int parse_factor(double *out, int *has_x, const char *w)
{
	char *end = NULL;

	errno = 0;
	*out = strtod(w, &end);
	if (end == w || errno || !(*out >= FACTOR_MIN && *out <= FACTOR_MAX) ||
	    !isdigit((unsigned char)w[0]))
		return -1;
	*has_x = 0;
	if (!strcmp(end, "x") || !strcmp(end, "×")) {
		*has_x = 1;
		return 0;
	}
	return *end ? -1 : 0;
}

/* Words, lower-cased, with one final '.' or '!' dropped. */
static void words(struct pmbench_strvec *out, const char *text)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (const char *p = text; *p; p++)
		pmbench_buf_addch(&b, isspace((unsigned char)*p)
					      ? ' '
					      : tolower((unsigned char)*p));
	pmbench_buf_rtrim(&b);
	if (b.len && (b.ptr[b.len - 1] == '.' || b.ptr[b.len - 1] == '!'))
		pmbench_buf_setlen(&b, b.len - 1);
	pmbench_strvec_split(out, b.ptr, ' ');
	pmbench_buf_release(&b);
}

static int bad(const char *text, const char *what)
{
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "cannot read the claim '%s': %s; write it "
				  "as '<pm> [<version>] <task> is <N>x faster "
				  "than <pm> [<version>] <task>' (or 'slower "
				  "than', 'as fast as')",
				  text, what);
}

/* Whether a claim's word is a version or a range ("10", "1.1", "^9"). */
static int version_word(const char *w)
{
	w += strspn(w, "^~=v");
	return isdigit((unsigned char)*w);
}

/*
 * "<pm> <version>" as one PM name ("bun 1.1": "bun@1.1"; "pnpm:hoisted 9":
 * "pnpm@9:hoisted") into *pm, the version word taken: 0, or an error.
 */
static int versioned(char **pm, const struct pmbench_strvec *w, size_t *i,
		     const char *text)
{
	const char *name = w->v[*i], *colon = strchr(name, ':');
	const struct pmbench_pm *entry;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = 0;

	if (strchr(name, '@') || *i + 1 >= w->nr || !version_word(w->v[*i + 1]))
		goto done;
	pmbench_buf_add(&b, name,
			colon ? (size_t)(colon - name) : strlen(name));
	pmbench_buf_addf(&b, "@%s%s", w->v[*i + 1], colon ? colon : "");
	if (pmbench_pm_lookup(&entry, b.ptr) < 0) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		ret = bad(text, why);
		free(why);
		goto done;
	}
	free(*pm);
	*pm = pmbench_buf_detach(&b);
	(*i)++;
done:
	pmbench_buf_release(&b);
	return ret;
}

/* "<pm> [<version>] [<task>]" at words[*i]. */
static int side(char **pm, char **task, const struct pmbench_strvec *w,
		size_t *i, const char *text)
{
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	int ret = 0;

	if (*i >= w->nr) {
		ret = bad(text, "a package manager is missing");
		goto done;
	}
	if (!pmbench_pm_get(w->v[*i])) {
		pmbench_buf_addf(&msg,
				 "'%s' is not a package manager pmbench "
				 "knows (",
				 w->v[*i]);
		pmbench_pm_join_names(&msg, ", ", 0);
		pmbench_buf_adds(&msg, ", or a variant)");
		ret = bad(text, msg.ptr);
		goto done;
	}
	*pm = pmbench_xstrdup(w->v[*i]);
	ret = versioned(pm, w, i, text);
	if (ret < 0)
		goto done;
	(*i)++;
	if (*i < w->nr && pmbench_task_get(w->v[*i])) {
		*task = pmbench_xstrdup(w->v[(*i)++]);
	} else if (*i < w->nr && strcmp(w->v[*i], "is")) {
		pmbench_buf_addf(&msg, "'%s' is not a task (", w->v[*i]);
		pmbench_task_list(&msg, 0);
		pmbench_buf_adds(&msg, ")");
		ret = bad(text, msg.ptr);
	} else {
		*task = pmbench_xstrdup(pmbench_task_default()->name);
	}
done:
	pmbench_buf_release(&msg);
	return ret;
}

/*
 * The factor at w->v[*i] with its 'x' or 'times', then 'faster than' or
 * 'slower than', into `out`, *i past them.
 */
static int factor_words(struct pmbench_claim *out,
			const struct pmbench_strvec *w, size_t *i,
			const char *text)
{
	int has_x = 0;

	if (*i >= w->nr || parse_factor(&out->factor, &has_x, w->v[*i]))
		return bad(text, "a factor such as '20x', '2.5 times' "
				 "or 'as fast as' should follow 'is' "
				 "(from 0.000001 to 1000000)");
	(*i)++;
	if (!has_x && *i < w->nr &&
	    (!strcmp(w->v[*i], "x") || !strcmp(w->v[*i], "×") ||
	     !strcmp(w->v[*i], "times")))
		(*i)++, has_x = 1;
	if (!has_x)
		return bad(text, "the factor needs 'x' or 'times'");
	if (*i + 1 < w->nr && !strcmp(w->v[*i], "faster") &&
	    !strcmp(w->v[*i + 1], "than"))
		out->kind = PMBENCH_CLAIM_FASTER;
	else if (*i + 1 < w->nr && !strcmp(w->v[*i], "slower") &&
		 !strcmp(w->v[*i + 1], "than"))
		out->kind = PMBENCH_CLAIM_SLOWER;
	else
		return bad(text, "'faster than' or 'slower than' should "
				 "follow the factor");
	*i += 2;
	return 0;
}

int pmbench_claim_parse(struct pmbench_claim *out, const char *text)
{
	struct pmbench_claim init = PMBENCH_CLAIM_INIT;
	struct pmbench_strvec w = PMBENCH_STRVEC_INIT;
	size_t i = 0;
	int ret;

	*out = init;
	words(&w, text);
	ret = side(&out->pm_a, &out->task_a, &w, &i, text);
	if (ret < 0)
		goto done;
	if (i >= w.nr || strcmp(w.v[i], "is")) {
		ret = bad(text, "'is' should follow the first package manager "
				"and task");
		goto done;
	}
	i++;
	if (i + 2 < w.nr && !strcmp(w.v[i], "as") &&
	    !strcmp(w.v[i + 1], "fast") && !strcmp(w.v[i + 2], "as")) {
		out->kind = PMBENCH_CLAIM_SAME;
		out->factor = 1;
		i += 3;
	} else {
		ret = factor_words(out, &w, &i, text);
		if (ret < 0)
			goto done;
	}
	ret = side(&out->pm_b, &out->task_b, &w, &i, text);
	if (ret < 0)
		goto done;
	if (i < w.nr) {
		ret = bad(text, "unexpected words at the end");
		goto done;
	}
	if (!strcmp(out->pm_a, out->pm_b) &&
	    !strcmp(out->task_a, out->task_b)) {
		ret = bad(text, "both sides are the same package manager and "
				"task");
		goto done;
	}
done:
	if (ret < 0)
		pmbench_claim_release(out);
	pmbench_strvec_release(&w);
	return ret;
}

void pmbench_claim_release(struct pmbench_claim *c)
{
	struct pmbench_claim init = PMBENCH_CLAIM_INIT;

	free(c->pm_a);
	free(c->task_a);
	free(c->pm_b);
	free(c->task_b);
	*c = init;
}

double pmbench_claim_speedup(const struct pmbench_claim *c)
{
	switch (c->kind) {
	case PMBENCH_CLAIM_FASTER:
		return c->factor;
	case PMBENCH_CLAIM_SLOWER:
		return 1 / c->factor;
	case PMBENCH_CLAIM_SAME:
		break;
	}
	return 1;
}

void pmbench_claim_describe(struct pmbench_buf *out,
			    const struct pmbench_claim *c)
{
	pmbench_buf_addf(out, "%s %s is ", c->pm_a, c->task_a);
	if (c->kind == PMBENCH_CLAIM_SAME)
		pmbench_buf_adds(out, "as fast as");
	else
		pmbench_buf_addf(out, "%gx %s than", c->factor,
				 c->kind == PMBENCH_CLAIM_FASTER ? "faster"
								 : "slower");
	pmbench_buf_addf(out, " %s %s", c->pm_b, c->task_b);
}

/* The verdict from out->speedup, the claim's band and n runs a side. */
static void decide(struct pmbench_claim_judgement *out,
		   const struct pmbench_claim *c, double tolerance, size_t n)
{
	double s = pmbench_claim_speedup(c), lp, half, d;

	out->band_lo = s / (1 + tolerance);
	out->band_hi = s * (1 + tolerance);
	if (out->speedup.lo >= out->band_lo &&
	    out->speedup.hi <= out->band_hi) {
		out->verdict = PMBENCH_CLAIM_REPRODUCED;
		return;
	}
	if (out->speedup.hi < out->band_lo || out->speedup.lo > out->band_hi) {
		/* A larger factor: a faster, or slower for "slower than". */
		int above = out->speedup.lo > out->band_hi;

		out->verdict = above != (c->kind == PMBENCH_CLAIM_SLOWER)
				       ? PMBENCH_CLAIM_EXCEEDED
				       : PMBENCH_CLAIM_SHORT;
		return;
	}
	out->verdict = PMBENCH_CLAIM_INCONCLUSIVE;
	/* Log scale: a ratio's interval is about symmetric there. */
	lp = log(out->speedup.point);
	half = (log(out->speedup.hi) - log(out->speedup.lo)) / 2;
	d = fabs(lp - log(out->band_lo));
	if (fabs(lp - log(out->band_hi)) < d)
		d = fabs(lp - log(out->band_hi));
	if (d > 1e-9)
		out->runs_needed =
			pmbench_stats_runs_needed(n, 2 * half, 2 * d);
}

int pmbench_claim_judge(struct pmbench_claim_judgement *out,
			const struct pmbench_claim *c, const double *a,
			size_t na, const double *b, size_t nb, double tolerance,
			uint64_t seed)
{
	struct pmbench_rng rng;
	struct pmbench_mwu mwu;
	int ret;

	memset(out, 0, sizeof(*out));
	pmbench_rng_seed(&rng, seed);
	/* time(b) / time(a): above 1 when a is faster. */
	ret = pmbench_stats_bootstrap_ratio(&out->speedup, b, nb, a, na, 0.95,
					    2000, &rng);
	if (ret < 0)
		return ret;
	ret = pmbench_stats_mann_whitney(&mwu, a, na, b, nb);
	if (ret < 0)
		return ret;
	out->p = mwu.p;
	decide(out, c, tolerance, na < nb ? na : nb);
	return 0;
}

int pmbench_claim_judge_paired(struct pmbench_claim_judgement *out,
			       const struct pmbench_claim *c, const double *a,
			       const double *b, size_t n, double tolerance,
			       uint64_t seed)
{
	struct pmbench_rng rng;
	struct pmbench_mwu mwu;
	int ret;

	memset(out, 0, sizeof(*out));
	pmbench_rng_seed(&rng, seed);
	ret = pmbench_stats_bootstrap_paired_ratio(&out->speedup, b, a, n, 0.95,
						   2000, &rng);
	if (ret < 0)
		return ret;
	ret = pmbench_stats_mann_whitney(&mwu, a, n, b, n);
	if (ret < 0)
		return ret;
	out->p = mwu.p;
	out->paired = 1;
	out->rounds = n;
	decide(out, c, tolerance, n);
	return 0;
}

const char *pmbench_claim_verdict_name(enum pmbench_claim_verdict v)
{
	switch (v) {
	case PMBENCH_CLAIM_REPRODUCED:
		return "reproduced";
	case PMBENCH_CLAIM_SHORT:
		return "short";
	case PMBENCH_CLAIM_EXCEEDED:
		return "exceeded";
	case PMBENCH_CLAIM_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

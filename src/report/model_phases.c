/*
 * Where a cell's time went, for every report: the median of each phase
 * over its timed runs (phases.h), the longest lifecycle script, and the
 * phase that moved most between two cells (compare).
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/phases.h"
#include "pmbench/report.h"
#include "pmbench/stats.h"

/* The samples of `c` that count: successful, timed, with phases. */
static int counts(const struct pmbench_sample *s)
{
	return s->ok && !s->warmup && s->phases;
}

/* The median of `get` over the runs that count. */
static double median_of(const struct pmbench_cell *c,
			double (*get)(const struct pmbench_phases *, int),
			int arg)
{
	double *v = pmbench_xcalloc(c->samples_nr + 1, sizeof(*v)), m;
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		if (counts(&c->samples[i]))
			v[n++] = get(c->samples[i].phases, arg);
	m = n ? pmbench_stats_median(v, n) : 0;
	free(v);
	return m;
}

static double get_phase(const struct pmbench_phases *ph, int p)
{
	return (double)pmbench_phases_get(ph, (enum pmbench_phase)p) / 1e9;
}

static double get_requests(const struct pmbench_phases *ph, int unused)
{
	(void)unused;
	return ph->requests;
}

static double get_written(const struct pmbench_phases *ph, int unused)
{
	(void)unused;
	return (double)ph->written_bytes;
}

static double get_cpu(const struct pmbench_phases *ph, int unused)
{
	(void)unused;
	return (double)ph->sampler_cpu_ns / 1e9;
}

/* A run's time in the script (package, event): all its windows. */
static double script_time(const struct pmbench_phases *ph, const char *pkg,
			  const char *event)
{
	double t = 0;

	for (size_t k = 0; k < ph->scripts_nr; k++) {
		const struct pmbench_phase_script *s = &ph->scripts[k];

		if (!strcmp(s->package, pkg) && !strcmp(s->event, event) &&
		    s->end_ns > s->start_ns)
			t += (double)(s->end_ns - s->start_ns) / 1e9;
	}
	return t;
}

/* The median over the runs of the script's time (0 where it did not run). */
static double script_median(const struct pmbench_cell *c, const char *pkg,
			    const char *event)
{
	double *v = pmbench_xcalloc(c->samples_nr + 1, sizeof(*v)), m;
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		if (counts(&c->samples[i]))
			v[n++] = script_time(c->samples[i].phases, pkg, event);
	m = n ? pmbench_stats_median(v, n) : 0;
	free(v);
	return m;
}

/* Every distinct script of the runs; the longest in the median. */
static void top_script(struct pmbench_report_phases *out,
		       const struct pmbench_cell *c)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_phases *ph = c->samples[i].phases;

		if (!counts(&c->samples[i]))
			continue;
		for (size_t k = 0; k < ph->scripts_nr; k++) {
			const struct pmbench_phase_script *s = &ph->scripts[k];
			double m;

			pmbench_buf_reset(&key);
			pmbench_buf_addf(&key, "%s\n%s", s->package, s->event);
			if (pmbench_strvec_find(&seen, key.ptr) >= 0)
				continue;
			pmbench_strvec_push(&seen, key.ptr);
			m = script_median(c, s->package, s->event);
			if (!out->script_package || m > out->script) {
				out->script_package = s->package;
				out->script_event = s->event;
				out->script = m;
			}
		}
	}
	out->scripts = seen.nr;
	pmbench_strvec_release(&seen);
	pmbench_buf_release(&key);
}

size_t pmbench_report_phases(struct pmbench_report_phases *out,
			     const struct pmbench_cell *c)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (!counts(s))
			continue;
		out->runs++;
		if ((double)s->phases->sample_ns / 1e9 > out->sample)
			out->sample = (double)s->phases->sample_ns / 1e9;
	}
	if (!out->runs)
		return 0;
	for (int p = 0; p < PMBENCH_PHASES; p++)
		out->median[p] = median_of(c, get_phase, p);
	out->requests = median_of(c, get_requests, 0);
	out->written = median_of(c, get_written, 0);
	out->sampler_cpu = median_of(c, get_cpu, 0);
	top_script(out, c);
	return out->runs;
}

double pmbench_report_phase_moved(enum pmbench_phase *out_phase,
				  const struct pmbench_report_phases *a,
				  const struct pmbench_report_phases *b)
{
	double best = 0;

	*out_phase = PMBENCH_PHASE_STARTUP;
	for (int p = 0; p < PMBENCH_PHASES; p++) {
		double d = b->median[p] - a->median[p];

		if (fabs(d) > fabs(best)) {
			best = d;
			*out_phase = (enum pmbench_phase)p;
		}
	}
	return best;
}

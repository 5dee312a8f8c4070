/*
 * Where a run's time went (phases.h): the phases computed from the
 * front's request log and the sampler's trace, a pure function and the
 * glue that feeds it a run's records.
 */
#include "pmbench/common.h"

#include "pmbench/mirror.h"
#include "pmbench/phases.h"
#include "pmbench/proc.h"

static const char *const names[PMBENCH_PHASES] = {
	[PMBENCH_PHASE_STARTUP] = "startup",
	[PMBENCH_PHASE_NETWORK] = "network",
	[PMBENCH_PHASE_WRITE] = "write",
	[PMBENCH_PHASE_SCRIPTS] = "scripts",
	[PMBENCH_PHASE_EXIT] = "exit",
};

const char *pmbench_phase_name(enum pmbench_phase p)
{
	return p < PMBENCH_PHASES ? names[p] : "?";
}

uint64_t pmbench_phases_get(const struct pmbench_phases *ph,
			    enum pmbench_phase p)
{
	switch (p) {
	case PMBENCH_PHASE_STARTUP:
		return ph->startup_ns;
	case PMBENCH_PHASE_NETWORK:
		return ph->network_ns;
	case PMBENCH_PHASE_WRITE:
		return ph->write_ns;
	case PMBENCH_PHASE_SCRIPTS:
		return ph->scripts_ns;
	case PMBENCH_PHASE_EXIT:
		return ph->exit_ns;
	default:
		return 0;
	}
}

static uint64_t *slot(struct pmbench_phases *ph, enum pmbench_phase p)
{
	uint64_t *v[PMBENCH_PHASES] = { &ph->startup_ns, &ph->network_ns,
					&ph->write_ns, &ph->scripts_ns,
					&ph->exit_ns };

	return v[p];
}

static uint64_t clamp(uint64_t t, uint64_t wall)
{
	return t < wall ? t : wall;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* What the inputs say, before the partition. */
struct marks {
	int net, writes, nm;
	uint64_t net_from, net_to, write_from, write_to, nm_at;
	uint64_t first, last; /* the first and last activity */
};

/* The network window and the most requests in flight. */
static void requests(struct pmbench_phases *out, struct marks *mk,
		     const struct pmbench_phases_input *in)
{
	size_t n = in->requests_nr, m = 0;
	uint64_t *ev = pmbench_xcalloc(2 * n + 1, sizeof(*ev));
	unsigned now = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pmbench_phase_request *r = &in->requests[i];
		uint64_t from = clamp(r->start_ns, in->wall_ns);
		uint64_t to = clamp(r->end_ns, in->wall_ns);

		if (to < from)
			to = from;
		if (!mk->net || from < mk->net_from)
			mk->net_from = from;
		if (!mk->net || to > mk->net_to)
			mk->net_to = to;
		mk->net = 1;
		/*
		 * Ends sort before starts at the same time (x2, +1); a
		 * request of no duration was never in flight with another.
		 */
		if (to == from)
			continue;
		ev[m++] = from * 2 + 1;
		ev[m++] = to * 2;
	}
	qsort(ev, m, sizeof(*ev), cmp_u64);
	for (size_t i = 0; i < m; i++) {
		now = ev[i] & 1 ? now + 1 : now - 1;
		if (now > out->in_flight_max)
			out->in_flight_max = now;
	}
	free(ev);
	out->requests = (unsigned)n;
	if (mk->net) {
		out->first_request_ns = mk->net_from;
		out->last_response_ns = mk->net_to;
	}
}

/*
 * The writes: a walk that found the tree's count grown places a write in
 * the middle of the interval since the walk before.
 */
static void writes(struct pmbench_phases *out, struct marks *mk,
		   const struct pmbench_phases_input *in)
{
	uint64_t prev_t = 0, prev_w = 0;

	for (size_t i = 0; i < in->points_nr; i++) {
		uint64_t t = clamp(in->points[i].t_ns, in->wall_ns);
		uint64_t w = in->points[i].written;

		uint64_t mid;

		if (t < prev_t)
			t = prev_t;
		mid = prev_t + (t - prev_t) / 2;
		if (in->points[i].marked && !mk->nm) {
			mk->nm = 1;
			mk->nm_at = mid;
		}
		if (w > prev_w) {
			if (!mk->writes)
				mk->write_from = mid;
			mk->write_to = mid;
			mk->writes = 1;
		}
		if (w > prev_w)
			prev_w = w;
		prev_t = t;
	}
	out->written_bytes = prev_w;
	if (mk->writes) {
		out->first_write_ns = mk->write_from;
		out->last_write_ns = mk->write_to;
	}
	if (mk->nm)
		out->node_modules_ns = mk->nm_at;
}

static void widen(struct marks *mk, int *any, uint64_t from, uint64_t to)
{
	if (!*any || from < mk->first)
		mk->first = from;
	if (!*any || to > mk->last)
		mk->last = to;
	*any = 1;
}

/* A script window, clamped to the run. */
static void script_span(uint64_t *from, uint64_t *to,
			const struct pmbench_phase_script *s, uint64_t wall)
{
	*from = clamp(s->start_ns, wall);
	*to = clamp(s->end_ns, wall);
	if (*to < *from)
		*to = *from;
}

/* The phase of [a, b), an interval no boundary cuts. */
static enum pmbench_phase phase_at(const struct marks *mk,
				   const struct pmbench_phases_input *in,
				   uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < in->scripts_nr; i++) {
		uint64_t from, to;

		script_span(&from, &to, &in->scripts[i], in->wall_ns);
		if (from <= a && b <= to)
			return PMBENCH_PHASE_SCRIPTS;
	}
	if (mk->net && mk->net_from <= a && b <= mk->net_to)
		return PMBENCH_PHASE_NETWORK;
	if (b <= mk->first)
		return PMBENCH_PHASE_STARTUP;
	if (a >= mk->last)
		return PMBENCH_PHASE_EXIT;
	return PMBENCH_PHASE_WRITE;
}

void pmbench_phases_compute(struct pmbench_phases *out,
			    const struct pmbench_phases_input *in)
{
	struct marks mk = { 0 };
	size_t nb = 0;
	uint64_t *b = pmbench_xcalloc(6 + 2 * in->scripts_nr, sizeof(*b));
	int any = 0;

	out->sample_ns = in->sample_ns;
	requests(out, &mk, in);
	writes(out, &mk, in);
	/*
	 * The first activity is a request, node_modules changed, or a
	 * script; writes only carry the activity on (see phases.h).
	 */
	if (mk.net)
		widen(&mk, &any, mk.net_from, mk.net_to);
	if (mk.nm)
		widen(&mk, &any, mk.nm_at, mk.nm_at);
	b[nb++] = 0;
	b[nb++] = in->wall_ns;
	for (size_t i = 0; i < in->scripts_nr; i++) {
		script_span(&b[nb], &b[nb + 1], &in->scripts[i], in->wall_ns);
		widen(&mk, &any, b[nb], b[nb + 1]);
		nb += 2;
	}
	/* Nothing seen at all: the whole run is its start. */
	if (!any)
		mk.first = mk.last = in->wall_ns;
	else if (mk.writes && mk.write_to > mk.last)
		mk.last = mk.write_to;
	b[nb++] = mk.first;
	b[nb++] = mk.last;
	if (mk.net) {
		b[nb++] = mk.net_from;
		b[nb++] = mk.net_to;
	}
	qsort(b, nb, sizeof(*b), cmp_u64);
	for (enum pmbench_phase p = 0; p < PMBENCH_PHASES; p++)
		*slot(out, p) = 0;
	for (size_t i = 0; i + 1 < nb; i++)
		if (b[i + 1] > b[i])
			*slot(out, phase_at(&mk, in, b[i], b[i + 1])) +=
				b[i + 1] - b[i];
	free(b);
}

/* ---- A run's records ---------------------------------------------------- */

/* The front's requests, made relative to the spawn at `t0`. */
static void take_requests(struct pmbench_phases *ph,
			  struct pmbench_mirror_log *log, uint64_t t0)
{
	if (!log)
		return;
	for (size_t i = 0; i < log->nr; i++) {
		const struct pmbench_mirror_request *r = &log->v[i];

		PMBENCH_ALLOC_GROW(ph->log, ph->log_nr + 1, ph->log_alloc);
		ph->log[ph->log_nr++] = (struct pmbench_phase_request){
			.start_ns = r->start_ns > t0 ? r->start_ns - t0 : 0,
			.end_ns = r->end_ns > t0 ? r->end_ns - t0 : 0,
			.bytes = r->bytes,
			.status = r->status,
			.kind = r->kind,
			.fallback = r->fallback,
		};
	}
	ph->log_dropped = log->dropped;
	pmbench_mirror_log_release(log);
}

static int cmp_script(const void *a, const void *b)
{
	const struct pmbench_phase_script *x = a, *y = b;
	int c = strcmp(x->package, y->package);

	if (!c)
		c = strcmp(x->event, y->event);
	if (!c)
		c = (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
	return c;
}

static int cmp_start(const void *a, const void *b)
{
	const struct pmbench_phase_script *x = a, *y = b;

	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/*
 * Each script process's span: from its start to the middle of the walk
 * interval in which it was found gone (the exit, when it never was).
 */
static void script_procs(struct pmbench_phases *ph,
			 const struct pmbench_child_trace *t, uint64_t wall)
{
	for (size_t i = 0; i < t->procs_nr; i++) {
		const struct pmbench_trace_proc *p = &t->procs[i];
		uint64_t end = wall;

		if (!p->script)
			continue;
		if (p->gone_ns)
			end = p->seen_ns + (p->gone_ns - p->seen_ns) / 2;
		if (end < p->start_ns)
			end = p->start_ns;
		PMBENCH_ALLOC_GROW(ph->scripts, ph->scripts_nr + 1,
				   ph->scripts_alloc);
		ph->scripts[ph->scripts_nr++] = (struct pmbench_phase_script){
			.package =
				pmbench_xstrdup(p->package ? p->package : ""),
			.event = pmbench_xstrdup(p->event),
			.start_ns = p->start_ns,
			.end_ns = end,
			.cpu_ns = p->cpu_ns,
		};
	}
}

/* One window per package's event and overlapping processes. */
static void merge_scripts(struct pmbench_phases *ph)
{
	size_t j = 0;

	if (!ph->scripts_nr)
		return; /* qsort() must not see a NULL array */
	qsort(ph->scripts, ph->scripts_nr, sizeof(*ph->scripts), cmp_script);
	for (size_t i = 0; i < ph->scripts_nr; i++) {
		struct pmbench_phase_script *s = &ph->scripts[i];
		struct pmbench_phase_script *w = j ? &ph->scripts[j - 1] : NULL;

		if (w && !strcmp(w->package, s->package) &&
		    !strcmp(w->event, s->event) && s->start_ns <= w->end_ns) {
			if (s->end_ns > w->end_ns)
				w->end_ns = s->end_ns;
			w->cpu_ns += s->cpu_ns;
			free(s->package);
			free(s->event);
			continue;
		}
		ph->scripts[j++] = *s;
	}
	ph->scripts_nr = j;
	qsort(ph->scripts, ph->scripts_nr, sizeof(*ph->scripts), cmp_start);
}

struct pmbench_phases *pmbench_phases_of_run(const struct pmbench_child *c,
					     struct pmbench_mirror_log *log)
{
	const struct pmbench_child_trace *t = c->trace;
	struct pmbench_phases *ph;
	struct pmbench_phases_input in;

	if (!t || !c->result.exited) {
		pmbench_mirror_log_release(log);
		return NULL;
	}
	ph = pmbench_xcalloc(1, sizeof(*ph));
	take_requests(ph, log, c->t0);
	script_procs(ph, t, c->result.wall_ns);
	merge_scripts(ph);
	in = (struct pmbench_phases_input){
		.wall_ns = c->result.wall_ns,
		.sample_ns = c->sample_ns,
		.points = t->points,
		.points_nr = t->points_nr,
		.scripts = ph->scripts,
		.scripts_nr = ph->scripts_nr,
		.requests = ph->log,
		.requests_nr = ph->log_nr,
	};
	pmbench_phases_compute(ph, &in);
	ph->samples = (unsigned)t->points_nr;
	ph->sampler_cpu_ns = t->cpu_ns;
	ph->written_partial = t->written_unread;
	return ph;
}

struct pmbench_phases *pmbench_phases_dup(const struct pmbench_phases *ph)
{
	struct pmbench_phases *d;

	if (!ph)
		return NULL;
	d = pmbench_xmalloc(sizeof(*d));
	*d = *ph;
	d->scripts = NULL;
	d->scripts_nr = d->scripts_alloc = 0;
	d->log = NULL;
	d->log_nr = d->log_alloc = 0;
	for (size_t i = 0; i < ph->scripts_nr; i++) {
		PMBENCH_ALLOC_GROW(d->scripts, d->scripts_nr + 1,
				   d->scripts_alloc);
		d->scripts[d->scripts_nr] = ph->scripts[i];
		d->scripts[d->scripts_nr].package =
			pmbench_xstrdup(ph->scripts[i].package);
		d->scripts[d->scripts_nr].event =
			pmbench_xstrdup(ph->scripts[i].event);
		d->scripts_nr++;
	}
	if (ph->log_nr) {
		d->log = pmbench_xmalloc(
			pmbench_st_mult(ph->log_nr, sizeof(*d->log)));
		memcpy(d->log, ph->log, ph->log_nr * sizeof(*d->log));
		d->log_nr = d->log_alloc = ph->log_nr;
	}
	return d;
}

void pmbench_phases_drop_log(struct pmbench_phases *ph)
{
	if (!ph)
		return;
	free(ph->log);
	ph->log = NULL;
	ph->log_nr = ph->log_alloc = 0;
}

void pmbench_phases_free(struct pmbench_phases *ph)
{
	if (!ph)
		return;
	for (size_t i = 0; i < ph->scripts_nr; i++) {
		free(ph->scripts[i].package);
		free(ph->scripts[i].event);
	}
	free(ph->scripts);
	free(ph->log);
	free(ph);
}

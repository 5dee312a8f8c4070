/*
 * The PMs' own timers (pmtimer.h): phases, transcripts, and one reader
 * per PM of what its timing output really prints (the pinned versions:
 * npm 11.19, yarn 1.22.22, yarn 4.18.1, pnpm 12.23.0, bun 1.4.5, deno
 * 2.9.6; transcripts in tests/data/pm-timers/). Each reader takes any
 * bytes: what it does not recognise it skips.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <math.h>

#include <cjson/cJSON.h>

#include "pmbench/pmtimer.h"
#include "pmtimer_parse.h"

/* ---- Phases -------------------------------------------------------------- */

static const char *const kind_names[PMBENCH_PMPHASE_KINDS] = {
	"startup", "resolve", "fetch", "link",
	"scripts", "save",    "other", "total",
};

const char *pmbench_pm_phase_kind_name(enum pmbench_pm_phase_kind kind)
{
	return (unsigned)kind < PMBENCH_PMPHASE_KINDS ? kind_names[kind]
						      : "other";
}

int pmbench_pm_phase_kind_get(const char *name)
{
	for (int k = 0; k < PMBENCH_PMPHASE_KINDS; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

/* A year: no install phase is longer; more is a misread number. */
#define PHASE_MAX_S (365.0 * 86400.0)

static double known_or_unknown(double v)
{
	return isfinite(v) && v >= 0 && v <= 1e15 ? v : -1;
}

int pmbench_pm_phases_add(struct pmbench_pm_phases *p, const char *name,
			  enum pmbench_pm_phase_kind kind, double start,
			  double seconds, double count, unsigned flags)
{
	struct pmbench_pm_phase *ph;
	size_t n = 0;
	char *copy;

	if (!name || !*name || !isfinite(seconds) || seconds < 0 ||
	    seconds > PHASE_MAX_S || (unsigned)kind >= PMBENCH_PMPHASE_KINDS)
		return 0;
	while (name[n] && n < PMBENCH_PMPHASE_NAME_MAX)
		n++;
	copy = pmbench_xstrndup(name, n);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)copy[i] < 0x20 ||
		    (unsigned char)copy[i] > 0x7e)
			copy[i] = '?';
	PMBENCH_ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	ph = &p->v[p->nr++];
	ph->name = copy;
	ph->kind = kind;
	ph->start = known_or_unknown(start);
	ph->seconds = seconds;
	ph->count = known_or_unknown(count);
	ph->flags = flags & PMBENCH_PMPHASE_ARRIVAL;
	return 1;
}

const struct pmbench_pm_phase *
pmbench_pm_phases_find(const struct pmbench_pm_phases *p, const char *name)
{
	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}

void pmbench_pm_phases_release(struct pmbench_pm_phases *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->v[i].name);
	free(p->v);
	p->v = NULL;
	p->nr = p->alloc = 0;
}

/* ---- Transcripts --------------------------------------------------------- */

/* "1.234567\t": the arrival, else -1 with the whole line as text. */
static const char *arrival(double *out, const char *p, const char *eol)
{
	char num[32];
	size_t n = 0;
	char *end;

	*out = -1;
	while (p + n < eol && n < sizeof(num) - 1 && p[n] != '\t')
		n++;
	if (p + n >= eol || p[n] != '\t' || !n)
		return p;
	memcpy(num, p, n);
	num[n] = '\0';
	if (!isdigit((unsigned char)num[0]))
		return p;
	*out = strtod(num, &end);
	if (*end || !isfinite(*out) || *out < 0) {
		*out = -1;
		return p;
	}
	return p + n + 1;
}

int pmbench_transcript_next(struct pmbench_tline *out, const char **pos,
			    const char *end)
{
	const char *p = *pos, *eol, *text;
	size_t n;

	if (!p || p >= end)
		return 0;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	text = arrival(&out->at, p, eol);
	n = (size_t)(eol - text);
	if (n && text[n - 1] == '\r')
		n--;
	if (n > PMBENCH_TLINE_MAX)
		n = PMBENCH_TLINE_MAX;
	memcpy(out->text, text, n);
	out->text[n] = '\0';
	out->len = strlen(out->text);
	*pos = eol < end ? eol + 1 : end;
	return 1;
}

void pmbench_transcript_add(struct pmbench_buf *out, double at,
			    const char *text, size_t len)
{
	pmbench_buf_addf(out, "%.6f\t", at >= 0 && isfinite(at) ? at : 0.0);
	pmbench_buf_add(out, text, len);
	pmbench_buf_addch(out, '\n');
}

/* ---- Shared by the readers ----------------------------------------------- */

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The seconds `unit` (at `*u`) stands for, advancing past it; 0 if none. */
static double unit_seconds(const char **u)
{
	static const struct {
		const char *name;
		double s;
	} units[] = {
		{ "ms", 1e-3 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
		{ "ns", 1e-9 }, { "min", 60 },	{ "m", 60 },
		{ "h", 3600 },	{ "s", 1 },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(units); i++) {
		size_t n = strlen(units[i].name);

		if (strncmp(*u, units[i].name, n) ||
		    isalpha((unsigned char)(*u)[n]))
			continue;
		*u += n;
		return units[i].s;
	}
	return 0;
}

/*
 * A duration as PMs print it: one or more "<number><unit>" separated by
 * spaces ("3s 386ms", "1m 2s", "179.00ms", "236.1us", "12s"). Seconds,
 * or -1 when `s` does not start with one. `*end` (may be NULL) gets
 * where it stopped.
 */
static double duration(const char *s, const char **end)
{
	double total = -1;

	for (;;) {
		const char *p = s, *u;
		double v, scale;
		char *e;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v = strtod(p, &e);
		u = e;
		scale = unit_seconds(&u);
		if (!scale || !isfinite(v))
			break;
		total = (total < 0 ? 0 : total) + v * scale;
		s = u;
	}
	if (end)
		*end = s;
	return total;
}

/* A start that is known only when both figures are. */
static double start_of(double at, double seconds)
{
	return at >= 0 && seconds >= 0 && at >= seconds ? at - seconds : -1;
}

/* A phase timed by when its lines arrived, if both ends did. */
static int add_arrival(struct pmbench_pm_phases *out, const char *name,
		       enum pmbench_pm_phase_kind kind, double from, double to,
		       double count)
{
	if (from < 0 || to < from)
		return 0;
	return pmbench_pm_phases_add(out, name, kind, from, to - from, count,
				     PMBENCH_PMPHASE_ARRIVAL);
}

/* ---- npm: --timing ------------------------------------------------------- */

/*
 * npm 11 prints "npm timing <timer> Completed in <N>ms" to stderr as each
 * timer ends (and writes the same timers to a -timing.json file in its _logs folder).
 * These are its steps, in order; the others are parts of them, counted.
 */
static const struct npm_timer {
	const char *timer;
	enum pmbench_pm_phase_kind kind;
	const char *counts; /* the timers of its items */
} npm_timers[] = {
	{ "npm:load", PMBENCH_PMPHASE_STARTUP, NULL },
	{ "idealTree", PMBENCH_PMPHASE_RESOLVE, "idealTree:node_modules/" },
	{ "reify:diffTrees", PMBENCH_PMPHASE_OTHER, NULL },
	{ "reify:createSparse", PMBENCH_PMPHASE_OTHER, NULL },
	{ "reify:unpack", PMBENCH_PMPHASE_FETCH, "reifyNode:node_modules/" },
	{ "reify:build", PMBENCH_PMPHASE_LINK, NULL },
	{ "reify:save", PMBENCH_PMPHASE_SAVE, NULL },
	{ "npm", PMBENCH_PMPHASE_TOTAL, NULL },
};

/* How many timers so far start with `prefix`. */
struct npm_counts {
	double ideal, unpack, scripts;
};

static void npm_count(struct npm_counts *n, const char *timer)
{
	if (starts(timer, "idealTree:node_modules/"))
		n->ideal++;
	else if (starts(timer, "reifyNode:node_modules/"))
		n->unpack++;
	else if (starts(timer, "build:run:") && strchr(timer + 10, ':'))
		n->scripts++;
}

static void npm_timer(struct pmbench_pm_phases *out, const char *timer,
		      double at, double secs, const struct npm_counts *n)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(npm_timers); i++) {
		const struct npm_timer *t = &npm_timers[i];
		double count = -1;

		if (strcmp(t->timer, timer))
			continue;
		if (t->kind == PMBENCH_PMPHASE_RESOLVE)
			count = n->ideal;
		else if (t->kind == PMBENCH_PMPHASE_FETCH)
			count = n->unpack;
		pmbench_pm_phases_add(out, timer, t->kind, start_of(at, secs),
				      secs, count, 0);
		return;
	}
	/* "build:run:postinstall": every package's postinstall. */
	if (starts(timer, "build:run:") && !strchr(timer + 10, ':'))
		pmbench_pm_phases_add(out, timer, PMBENCH_PMPHASE_SCRIPTS,
				      start_of(at, secs), secs, n->scripts, 0);
}

int pmbench_pmtimer_npm(struct pmbench_pm_phases *out, const char *text,
			size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	const char *pos = text, *end = text + len;
	struct npm_counts n = { 0, 0, 0 };
	size_t before = out->nr;

	while (pmbench_transcript_next(&l, &pos, end)) {
		char *name = l.text + strlen("npm timing "), *in;
		double secs;

		if (!starts(l.text, "npm timing "))
			continue;
		in = strstr(name, " Completed in ");
		if (!in)
			continue;
		*in = '\0';
		secs = duration(in + strlen(" Completed in "), NULL);
		npm_count(&n, name);
		if (secs >= 0)
			npm_timer(out, name, l.at, secs, &n);
	}
	return (int)(out->nr - before);
}

/* ---- yarn 4: its step lines ---------------------------------------------- */

#define STEPS_MAX 8

struct berry_step {
	char name[PMBENCH_PMPHASE_NAME_MAX + 1];
	double at;
	double count;
};

static enum pmbench_pm_phase_kind step_kind(const char *name)
{
	if (strstr(name, "Resol"))
		return PMBENCH_PMPHASE_RESOLVE;
	if (strstr(name, "Fetch"))
		return PMBENCH_PMPHASE_FETCH;
	if (strstr(name, "Link"))
		return PMBENCH_PMPHASE_LINK;
	if (strstr(name, "Build"))
		return PMBENCH_PMPHASE_SCRIPTS;
	return PMBENCH_PMPHASE_OTHER;
}

/* "└ Completed in 3s 386ms" ends the innermost step; "└ Completed" too. */
static void berry_end(struct pmbench_pm_phases *out, struct berry_step *s,
		      const char *rest, double at)
{
	double secs = -1;

	if (starts(rest, " in "))
		secs = duration(rest + 4, NULL);
	if (secs >= 0)
		pmbench_pm_phases_add(out, s->name, step_kind(s->name),
				      s->at >= 0 ? s->at : start_of(at, secs),
				      secs, s->count, 0);
	else
		add_arrival(out, s->name, step_kind(s->name), s->at, at,
			    s->count);
}

/* "N packages were added to the project (+ 18.29 MiB)." */
static double berry_count(const char *line)
{
	const char *p = strstr(line, "YN0013:");

	if (!p)
		return -1;
	p += strlen("YN0013:");
	while (*p && !isdigit((unsigned char)*p))
		p++;
	if (!*p || !strstr(p, " package"))
		return -1;
	return strtod(p, NULL);
}

/* "· Done with warnings in 8s 802ms", "Failed with errors in ...". */
static void berry_total(struct pmbench_pm_phases *out, const char *line,
			double at)
{
	const char *p = strstr(line, "\xc2\xb7 Done");
	double secs;

	if (!p)
		p = strstr(line, "Failed with errors");
	if (!p || !(p = strstr(p, " in ")))
		return;
	secs = duration(p + 4, NULL);
	if (secs >= 0)
		pmbench_pm_phases_add(out, "total", PMBENCH_PMPHASE_TOTAL,
				      start_of(at, secs), secs, -1, 0);
}

int pmbench_pmtimer_berry(struct pmbench_pm_phases *out, const char *text,
			  size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	struct berry_step steps[STEPS_MAX];
	const char *pos = text, *end = text + len, *p;
	size_t before = out->nr, depth = 0;
	int first = 1;

	while (pmbench_transcript_next(&l, &pos, end)) {
		if (!strstr(l.text, "YN0"))
			continue;
		/* Until its first line, yarn was starting (Node, its bundle). */
		if (first && l.at >= 0)
			add_arrival(out, "startup", PMBENCH_PMPHASE_STARTUP, 0,
				    l.at, -1);
		first = 0;
		if ((p = strstr(l.text, "\xe2\x94\x8c ")) &&
		    depth < STEPS_MAX) {
			snprintf(steps[depth].name, sizeof(steps[depth].name),
				 "%s", p + 4);
			steps[depth].at = l.at;
			steps[depth++].count = -1;
		} else if ((p = strstr(l.text, "\xe2\x94\x94 Completed")) &&
			   depth) {
			depth--;
			berry_end(out, &steps[depth], p + 13, l.at);
		} else if (depth && berry_count(l.text) >= 0) {
			steps[depth - 1].count = berry_count(l.text);
		} else {
			berry_total(out, l.text, l.at);
		}
	}
	return (int)(out->nr - before);
}

/* ---- yarn 1: --verbose ---------------------------------------------------- */

struct classic {
	struct pmbench_pm_phases *out;
	char step[PMBENCH_PMPHASE_NAME_MAX + 1];
	double from;	 /* the open step's start, or -1: none open */
	int own;	 /* its start is yarn's clock, not an arrival */
	double requests; /* in the open step */
	double last;	 /* yarn's clock: the last verbose line's, or -1 */
};

/* Close the open step at yarn's clock if it has one, else the arrival. */
static void classic_close(struct classic *c, double at)
{
	double to = c->own ? c->last : at;

	enum pmbench_pm_phase_kind kind = step_kind(c->step);
	/* Requests are what the resolution and the fetch count. */
	int counts = kind == PMBENCH_PMPHASE_RESOLVE ||
		     kind == PMBENCH_PMPHASE_FETCH;

	if (c->from >= 0 && to >= c->from)
		pmbench_pm_phases_add(c->out, c->step, kind, c->from,
				      to - c->from, counts ? c->requests : -1,
				      c->own ? 0 : PMBENCH_PMPHASE_ARRIVAL);
	c->from = -1;
}

/* "[2/5] Resolving packages...": a step opens. */
static int classic_step(struct classic *c, const char *line, double at)
{
	const char *p = line + 1;
	size_t n;

	if (line[0] != '[' || !isdigit((unsigned char)*p))
		return 0;
	p += strspn(p, "0123456789");
	if (*p++ != '/' || !isdigit((unsigned char)*p))
		return 0;
	p += strspn(p, "0123456789");
	if (!starts(p, "] "))
		return 0;
	classic_close(c, at);
	p += 2;
	n = strlen(p);
	while (n && p[n - 1] == '.')
		n--;
	snprintf(c->step, sizeof(c->step), "%.*s", (int)n, p);
	c->own = c->last >= 0;
	c->from = c->own ? c->last : at;
	c->requests = 0;
	return 1;
}

int pmbench_pmtimer_yarn(struct pmbench_pm_phases *out, const char *text,
			 size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	const char *pos = text, *end = text + len;
	struct classic c = { .out = out, .from = -1, .last = -1 };
	size_t before = out->nr;

	while (pmbench_transcript_next(&l, &pos, end)) {
		double secs;

		if (starts(l.text, "verbose ")) {
			double t = strtod(l.text + 8, NULL);

			if (isfinite(t) && t >= 0 && t < PHASE_MAX_S)
				c.last = t;
			if (strstr(l.text, "Performing \"GET\" request"))
				c.requests++;
		} else if (classic_step(&c, l.text, l.at)) {
			continue;
		} else if (starts(l.text, "Done in ")) {
			classic_close(&c, l.at);
			secs = duration(l.text + 8, NULL);
			if (secs >= 0)
				pmbench_pm_phases_add(out, "total",
						      PMBENCH_PMPHASE_TOTAL,
						      start_of(l.at, secs),
						      secs, -1, 0);
		}
	}
	classic_close(&c, l.at);
	return (int)(out->nr - before);
}

/* ---- pnpm: --reporter=ndjson --------------------------------------------- */

/* What pnpm's log said, in its clock (Unix ms); -1 where it said nothing. */
struct pnpm_log {
	double started, ended;	  /* pnpm:execution-time */
	double import0, import1;  /* pnpm:stage importing_started/done */
	double res0, res1;	  /* resolution_started/done */
	double fetch0, fetch1;	  /* first fetch started, last fetched */
	double script0, script1;  /* first and last pnpm:lifecycle */
	double resolved, fetched; /* pnpm:progress counts */
	double imported, scripts; /* ... and lifecycle scripts started */
	int has_offset;
	double offset; /* the earliest arrival minus pnpm's clock, s */
};

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble
							     : -1;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static void first(double *slot, double t)
{
	if (*slot < 0)
		*slot = t;
}

static void pnpm_stage(struct pnpm_log *g, const char *stage, double t)
{
	if (!strcmp(stage, "importing_started"))
		first(&g->import0, t);
	else if (!strcmp(stage, "importing_done"))
		g->import1 = t;
	else if (!strcmp(stage, "resolution_started"))
		first(&g->res0, t);
	else if (!strcmp(stage, "resolution_done"))
		g->res1 = t;
}

static void pnpm_event(struct pnpm_log *g, const cJSON *o, double t)
{
	const char *name = str(o, "name"), *status = str(o, "status");

	if (!strcmp(name, "pnpm:execution-time")) {
		g->started = num(o, "startedAt");
		g->ended = num(o, "endedAt");
	} else if (!strcmp(name, "pnpm:stage")) {
		pnpm_stage(g, str(o, "stage"), t);
	} else if (!strcmp(name, "pnpm:fetching-progress") &&
		   !strcmp(status, "started")) {
		first(&g->fetch0, t);
	} else if (!strcmp(name, "pnpm:progress")) {
		if (!strcmp(status, "resolved"))
			g->resolved++;
		if (!strcmp(status, "imported"))
			g->imported++;
		if (!strcmp(status, "fetched")) {
			g->fetched++;
			g->fetch1 = t;
		}
	} else if (!strcmp(name, "pnpm:lifecycle")) {
		first(&g->script0, t);
		g->script1 = t;
		g->scripts += *str(o, "script") != '\0';
	}
}

/* A span of pnpm's clock as a phase, its start after the spawn if known. */
static void pnpm_span(struct pmbench_pm_phases *out, const struct pnpm_log *g,
		      const char *name, enum pmbench_pm_phase_kind kind,
		      double from, double to, double count)
{
	double start = -1;

	if (from < 0 || to < from)
		return;
	if (g->has_offset && from / 1e3 + g->offset >= 0)
		start = from / 1e3 + g->offset;
	pmbench_pm_phases_add(out, name, kind, start, (to - from) / 1e3, count,
			      0);
}

static void pnpm_phases(struct pmbench_pm_phases *out, const struct pnpm_log *g)
{
	double begun = g->import0 >= 0 && (g->res0 < 0 || g->import0 < g->res0)
			       ? g->import0
			       : g->res0;

	pnpm_span(out, g, "startup", PMBENCH_PMPHASE_STARTUP, g->started, begun,
		  -1);
	pnpm_span(out, g, "resolution", PMBENCH_PMPHASE_RESOLVE, g->res0,
		  g->res1, g->resolved);
	if (g->fetched > 0)
		pnpm_span(out, g, "fetch", PMBENCH_PMPHASE_FETCH, g->fetch0,
			  g->fetch1, g->fetched);
	pnpm_span(out, g, "link", PMBENCH_PMPHASE_LINK,
		  g->res1 >= 0 ? g->res1 : g->import0, g->import1, g->imported);
	pnpm_span(out, g, "scripts", PMBENCH_PMPHASE_SCRIPTS, g->script0,
		  g->script1, g->scripts);
	pnpm_span(out, g, "total", PMBENCH_PMPHASE_TOTAL, g->started, g->ended,
		  -1);
}

int pmbench_pmtimer_pnpm(struct pmbench_pm_phases *out, const char *text,
			 size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	const char *pos = text, *end = text + len;
	struct pnpm_log g = {
		.started = -1,
		.ended = -1,
		.import0 = -1,
		.import1 = -1,
		.res0 = -1,
		.res1 = -1,
		.fetch0 = -1,
		.fetch1 = -1,
		.script0 = -1,
		.script1 = -1,
	};
	size_t before = out->nr;

	while (pmbench_transcript_next(&l, &pos, end)) {
		cJSON *o;
		double t;

		if (l.text[0] != '{')
			continue;
		o = cJSON_Parse(l.text);
		t = num(o, "time");
		if (o && t >= 0) {
			/* The earliest arrival after pnpm's time is the best. */
			if (l.at >= 0 &&
			    (!g.has_offset || l.at - t / 1e3 < g.offset)) {
				g.offset = l.at - t / 1e3;
				g.has_offset = 1;
			}
			pnpm_event(&g, o, t);
		}
		cJSON_Delete(o);
	}
	pnpm_phases(out, &g);
	return (int)(out->nr - before);
}

/* ---- bun: --verbose ------------------------------------------------------ */

struct bun_log {
	double res0, res1; /* "Resolving dependencies", "Resolved, ..." */
	double first;	   /* the first line's arrival */
	double tarballs;   /* "Downloaded <name> tarball" */
};

/* "89 packages installed [6.34s]", "Checked 89 installs ... [12.00ms]". */
static int bun_done(struct pmbench_pm_phases *out, const struct bun_log *g,
		    const struct pmbench_tline *l)
{
	const char *b = strrchr(l->text, '['), *e;
	double secs,
		n = strtod(l->text + starts(l->text, "Checked ") * 8, NULL);

	if (!b || (!strstr(l->text, " installed [") &&
		   !strstr(l->text, " installs across ")))
		return 0;
	secs = duration(b + 1, &e);
	if (secs < 0 || *e != ']')
		return 0;
	add_arrival(out, "install", PMBENCH_PMPHASE_LINK,
		    g->res1 >= 0 ? g->res1 : g->first, l->at, n);
	pmbench_pm_phases_add(out, "total", PMBENCH_PMPHASE_TOTAL,
			      start_of(l->at, secs), secs, -1, 0);
	return 1;
}

int pmbench_pmtimer_bun(struct pmbench_pm_phases *out, const char *text,
			size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	const char *pos = text, *end = text + len, *p;
	struct bun_log g = { -1, -1, -1, 0 };
	size_t before = out->nr;

	while (pmbench_transcript_next(&l, &pos, end)) {
		double secs;

		if (g.first < 0)
			g.first = l.at;
		if (starts(l.text, "Resolving dependencies"))
			first(&g.res0, l.at);
		/*
		 * "[190.68ms] Downloaded pino-http tarball", or, for a small
		 * one, "[accepts] Streamed 5.40 KB tarball -> 5 entries".
		 */
		else if ((strstr(l.text, "] Downloaded ") ||
			  strstr(l.text, "] Streamed ")) &&
			 strstr(l.text, " tarball"))
			g.tarballs++;
		if (starts(l.text, "Resolved, downloaded and extracted")) {
			g.res1 = l.at;
			add_arrival(out, "resolve, download, extract",
				    PMBENCH_PMPHASE_RESOLVE, g.res0, g.res1,
				    g.tarballs);
		} else if (starts(l.text, "Clean lockfile:") &&
			   (p = strstr(l.text, " in ")) &&
			   (secs = duration(p + 4, NULL)) >= 0) {
			pmbench_pm_phases_add(out, "clean lockfile",
					      PMBENCH_PMPHASE_OTHER,
					      start_of(l.at, secs), secs, -1,
					      0);
		} else {
			bun_done(out, &g, &l);
		}
	}
	return (int)(out->nr - before);
}

/* ---- deno: -L debug ------------------------------------------------------ */

struct deno_log {
	double config;	   /* "Finished config loading." */
	double res0, res1; /* "Running npm resolution.", its end */
	double inst0;	   /* "Acquiring file lock" */
	double metadata;   /* packument downloads during resolution */
};

/* "Installed 89 packages in 332ms": the install ends; deno's total. */
static void deno_done(struct pmbench_pm_phases *out, const struct deno_log *g,
		      const struct pmbench_tline *l)
{
	const char *p = strstr(l->text, " packages in ");
	double n = strtod(l->text + 10, NULL), secs;
	double from = g->inst0 >= 0 ? g->inst0 : g->res1;

	if (!p)
		return;
	secs = duration(p + 13, NULL);
	add_arrival(out, "install", PMBENCH_PMPHASE_LINK,
		    from >= 0 ? from : g->config, l->at, n);
	if (secs >= 0)
		pmbench_pm_phases_add(out, "total", PMBENCH_PMPHASE_TOTAL,
				      start_of(l->at, secs), secs, -1, 0);
}

static void deno_line(struct pmbench_pm_phases *out, struct deno_log *g,
		      const struct pmbench_tline *l)
{
	if (strstr(l->text, "Finished config loading.") && g->config < 0) {
		g->config = l->at;
		add_arrival(out, "startup", PMBENCH_PMPHASE_STARTUP, 0, l->at,
			    -1);
	} else if (strstr(l->text, "Running npm resolution.")) {
		first(&g->res0, l->at);
	} else if (g->res0 >= 0 && g->res1 < 0 &&
		   (strstr(l->text, "Running npm dedup pass.") ||
		    strstr(l->text, "Acquiring file lock"))) {
		g->res1 = l->at;
		add_arrival(out, "resolution", PMBENCH_PMPHASE_RESOLVE, g->res0,
			    g->res1, g->metadata);
	} else if (starts(l->text, "Download http") && g->res1 < 0 &&
		   !strstr(l->text, ".tgz")) {
		g->metadata++;
	}
	if (strstr(l->text, "Acquiring file lock"))
		first(&g->inst0, l->at);
	if (starts(l->text, "Installed "))
		deno_done(out, g, l);
}

int pmbench_pmtimer_deno(struct pmbench_pm_phases *out, const char *text,
			 size_t len)
{
	struct pmbench_tline l = { .at = -1 };
	const char *pos = text, *end = text + len;
	struct deno_log g = { -1, -1, -1, -1, 0 };
	size_t before = out->nr;

	while (pmbench_transcript_next(&l, &pos, end))
		deno_line(out, &g, &l);
	return (int)(out->nr - before);
}

/*
 * Progress on stderr. Not on a terminal: one line per finished step (a
 * priming, a run), as CI logs want them. On a terminal, hyperfine's
 * kind: one bar per group of runs (a fixture's task in a scenario) with
 * the PM running now, runs done of planned, that PM's running median and
 * an ETA from the runs so far (before the first, from the primings);
 * when the group ends its bar is replaced by one line of medians. Lines
 * of their own (primings, failed runs, warnings) go above the bar.
 */
#include "pmbench/common.h"

#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/doc.h"
#include "pmbench/stats.h"
#include "pmbench/text.h"
#include "progress.h"

static int is_tty;
static int status_shown;

/*
 * The runs of one cell in the current group: a PM, and with bench --base
 * its side (a PM's base and head runs are two medians).
 */
struct pm_times {
	char *pm;
	char *side; /* NULL: one side */
	double *t;
	size_t n, alloc;
};

/* The group whose bar is drawn. */
static struct {
	char *name; /* NULL: none */
	char *pm;   /* running now */
	char *side; /* its side, or NULL */
	unsigned done, total;
	uint64_t start_ns;
	double eta_s; /* the engine's, of the whole command; 0: none */
	struct pm_times *pms;
	size_t pms_nr, pms_alloc;
} group;

/* The primings so far, for the ETA before the first run and the estimate. */
static double prime_sum;
static unsigned prime_nr;
static unsigned plan_groups;
static int estimated;
static double budget_s; /* the time budget, or 0: the plan is fixed */
static int no_estimate; /* the primings' estimate does not fit the runs */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pmbench_progress_init(int tty)
{
	is_tty = tty < 0 ? isatty(2) : tty;
}

void pmbench_progress_plan(unsigned groups)
{
	plan_groups = groups;
}

void pmbench_progress_budget(double seconds)
{
	budget_s = seconds;
}

void pmbench_progress_no_estimate(void)
{
	no_estimate = 1;
}

/* The width of the terminal on stderr, 80 if it cannot tell. */
static size_t term_width(void)
{
	struct winsize ws;

	if (!ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

void pmbench_progress_clear(void)
{
	if (is_tty && status_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		status_shown = 0;
	}
}

/*
 * Draw `text` as the status line, cut to the terminal's width. Like every
 * line here it is made fit to print: it names fixtures, scripts and PMs
 * from user files, whose bytes must not drive the terminal.
 */
static void draw(const struct pmbench_buf *text)
{
	struct pmbench_buf line = PMBENCH_BUF_INIT;
	size_t max = term_width() - 1, cols = 0, i;

	pmbench_text_clean(&line, text->ptr, 0);
	for (i = 0; i < line.len; i++) {
		if (((unsigned char)line.ptr[i] & 0xc0) == 0x80)
			continue;
		if (cols++ == max)
			break;
	}
	pmbench_buf_setlen(&line, i);
	fflush(stdout);
	fprintf(stderr, "\r\033[K%s", line.ptr);
	fflush(stderr);
	status_shown = 1;
	pmbench_buf_release(&line);
}

void pmbench_progress_status(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	if (!is_tty)
		return;
	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	draw(&b);
	pmbench_buf_release(&b);
}

/* A line of its own, above the bar (which the next report redraws). */
static void line(const char *prefix, const char *text)
{
	struct pmbench_buf clean = PMBENCH_BUF_INIT;

	pmbench_text_clean(&clean, text, 0);
	pmbench_progress_clear();
	fflush(stdout);
	fprintf(stderr, "pmbench: %s%s\n", prefix, clean.ptr);
	fflush(stderr);
	pmbench_buf_release(&clean);
}

void pmbench_progress_event(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	line("", b.ptr);
	pmbench_buf_release(&b);
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The runs of `pm`'s cell on `side` (NULL: one side). */
static struct pm_times *times_of(const char *pm, const char *side)
{
	struct pm_times *t;

	for (size_t i = 0; i < group.pms_nr; i++)
		if (!strcmp(group.pms[i].pm, pm) &&
		    same(group.pms[i].side, side))
			return &group.pms[i];
	PMBENCH_ALLOC_GROW(group.pms, group.pms_nr + 1, group.pms_alloc);
	t = &group.pms[group.pms_nr++];
	memset(t, 0, sizeof(*t));
	t->pm = pmbench_xstrdup(pm);
	t->side = side ? pmbench_xstrdup(side) : NULL;
	return t;
}

/* A cell's name: "npm", or with its side "npm (base)". */
static void add_cell(struct pmbench_buf *b, const char *pm, const char *side)
{
	pmbench_buf_adds(b, pm);
	if (side)
		pmbench_buf_addf(b, " (%s)", side);
}

static void add_seconds(struct pmbench_buf *b, double s)
{
	if (s < 1)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.3f s", s);
}

/*
 * Seconds left: the budget's plan of the whole command when the engine
 * gives it, else the group's, from its runs so far, else the primings.
 */
static double eta(void)
{
	if (group.eta_s > 0)
		return group.eta_s;

	double elapsed = (double)(now_ns() - group.start_ns) / 1e9;
	unsigned left = group.total > group.done ? group.total - group.done : 0;

	if (group.done)
		return elapsed / group.done * left;
	if (prime_nr)
		return prime_sum / prime_nr * left;
	return 0;
}

/* The bar of the group: name, bar, done/total, percent, PM, median, ETA. */
static void draw_bar(void)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, tail = PMBENCH_BUF_INIT;
	struct pm_times *t = group.pm ? times_of(group.pm, group.side) : NULL;
	unsigned pct = group.total ? group.done * 100 / group.total : 0;
	size_t width = term_width(), bar, fill;

	if (pct > 100)
		pct = 100;
	pmbench_buf_addf(&tail, " %3u%%  %u/%u", pct, group.done, group.total);
	if (group.pm) {
		pmbench_buf_adds(&tail, "  ");
		add_cell(&tail, group.pm, group.side);
	}
	if (t && t->n) {
		pmbench_buf_adds(&tail, " median ");
		add_seconds(&tail, pmbench_stats_median(t->t, t->n));
	}
	pmbench_buf_adds(&tail, "  ETA ");
	pmbench_buf_add_clock(&tail, eta());
	pmbench_buf_addf(&b, "%s ", group.name);
	bar = pmbench_doc_display_len(b.ptr) +
				      pmbench_doc_display_len(tail.ptr) + 12 <
			      width
		      ? width - 1 - pmbench_doc_display_len(b.ptr) -
				pmbench_doc_display_len(tail.ptr)
		      : 10;
	if (bar > 40)
		bar = 40;
	fill = group.total ? bar * group.done / group.total : 0;
	for (size_t i = 0; i < bar; i++)
		pmbench_buf_adds(&b, i < fill ? "█" : "░");
	pmbench_buf_addf(&b, "%s", tail.ptr);
	draw(&b);
	pmbench_buf_release(&b);
	pmbench_buf_release(&tail);
}

/*
 * The group is over: its bar gives way to a line with each PM's median,
 * at 100 % (a --runs auto group may stop before its planned runs).
 */
static void end_group(void)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!group.name)
		return;
	if (is_tty) {
		pmbench_buf_addf(&b, "%s: 100%%, %u runs in ", group.name,
				 group.done);
		pmbench_buf_add_clock(&b, (double)(now_ns() - group.start_ns) /
						  1e9);
		for (size_t i = 0; i < group.pms_nr; i++) {
			struct pm_times *t = &group.pms[i];

			pmbench_buf_adds(&b, i ? ", " : "; ");
			add_cell(&b, t->pm, t->side);
			pmbench_buf_adds(&b, " ");
			if (t->n)
				add_seconds(&b,
					    pmbench_stats_median(t->t, t->n));
			else
				pmbench_buf_adds(&b, "failed");
		}
		line("", b.ptr);
	}
	for (size_t i = 0; i < group.pms_nr; i++) {
		free(group.pms[i].pm);
		free(group.pms[i].side);
		free(group.pms[i].t);
	}
	free(group.pms);
	free(group.name);
	free(group.pm);
	free(group.side);
	memset(&group, 0, sizeof(group));
	pmbench_buf_release(&b);
}

/*
 * Once the primings are done (the first run starts): what the whole
 * benchmark may take. A clean install costs about a priming, runs from
 * a warm cache less: rather too much than too little, but no bound.
 */
static void estimate(unsigned total)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	double mean;

	if (estimated || no_estimate || (!prime_nr && !budget_s))
		return;
	estimated = 1;
	/* Under a budget the engine's plan says it, from the warm-ups. */
	if (budget_s)
		return;
	mean = prime_sum / prime_nr;
	pmbench_buf_adds(&b, "estimate: about ");
	pmbench_buf_add_clock_unit(&b, mean * total *
					       (plan_groups ? plan_groups : 1));
	pmbench_buf_addf(&b,
			 ": %u group%s of %u run%s, each about a "
			 "priming (%.1f s) or less",
			 plan_groups ? plan_groups : 1,
			 plan_groups > 1 ? "s" : "", total,
			 total == 1 ? "" : "s", mean);
	line("", b.ptr);
	pmbench_buf_release(&b);
}

/* A report about a group of runs. */
static void group_report(const struct pmbench_progress *p)
{
	if (!group.name || strcmp(group.name, p->group)) {
		end_group();
		estimate(p->total);
		group.name = pmbench_xstrdup(p->group);
		group.start_ns = now_ns();
	}
	group.done = p->done;
	group.total = p->total;
	group.eta_s = p->eta_s;
	if (p->pm && (!same(group.pm, p->pm) || !same(group.side, p->side))) {
		free(group.pm);
		free(group.side);
		group.pm = pmbench_xstrdup(p->pm);
		group.side = p->side ? pmbench_xstrdup(p->side) : NULL;
	}
	if (p->kind == PMBENCH_PROGRESS_EVENT && p->pm && p->seconds >= 0) {
		struct pm_times *t = times_of(p->pm, p->side);

		PMBENCH_ALLOC_GROW(t->t, t->n + 1, t->alloc);
		t->t[t->n++] = p->seconds;
	}
	/* Off a terminal every run is a line; on one, only failures. */
	if (p->kind == PMBENCH_PROGRESS_EVENT && (!is_tty || p->seconds < 0))
		line("", p->text);
	if (is_tty)
		draw_bar();
}

void pmbench_progress_report(const struct pmbench_progress *p, void *payload)
{
	(void)payload;
	if (p->priming && p->seconds >= 0) {
		prime_sum += p->seconds;
		prime_nr++;
	}
	if (p->group && p->kind != PMBENCH_PROGRESS_DONE) {
		group_report(p);
		return;
	}
	switch (p->kind) {
	case PMBENCH_PROGRESS_STATUS:
		if (group.name)
			end_group();
		pmbench_progress_status("%s", p->text);
		break;
	case PMBENCH_PROGRESS_EVENT:
		pmbench_progress_event("%s", p->text);
		break;
	case PMBENCH_PROGRESS_DONE:
		end_group();
		pmbench_progress_clear();
		break;
	}
}

void pmbench_progress_log(enum pmbench_log_level level, const char *msg,
			  void *payload)
{
	(void)payload;
	line(level == PMBENCH_LOG_WARNING ? "warning: " : "", msg);
}

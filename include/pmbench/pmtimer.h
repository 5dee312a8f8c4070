#ifndef PMBENCH_PMTIMER_H
#define PMBENCH_PMTIMER_H

#include <stddef.h>

#include "pmbench/buf.h"

/**
 * What the package managers' own timers say (`bench --explain`): the
 * phases a PM names when its timing output is switched on (npm
 * `--timing`, pnpm `--reporter=ndjson`, yarn 4's step lines, yarn 1 and
 * bun `--verbose`, deno's debug log), as each PM's table entry reads
 * them (`timer_parse` in src/engine/pm/pm.c, the parsers in
 * src/engine/pm/pmtimer.c).
 *
 * A parser reads a *transcript*: the PM's output, one line per line as
 * pmbench read it, each prefixed by when it arrived, in seconds after
 * the spawn, and a tab ("1.545734\t➤ YN0000: ┌ Resolution step"); a
 * line without that prefix has no known arrival. A PM that prints no
 * times of its own (deno) is timed by when its lines arrived: such a
 * phase carries PMBENCH_PMPHASE_ARRIVAL, and is as late as the PM's own
 * buffering makes its lines.
 */

/** What a phase is, the same word for every PM, so PMs line up. */
enum pmbench_pm_phase_kind {
	PMBENCH_PMPHASE_STARTUP, /**< start-up, configuration */
	PMBENCH_PMPHASE_RESOLVE, /**< resolution (metadata, the tree) */
	PMBENCH_PMPHASE_FETCH,	 /**< downloads and extraction */
	PMBENCH_PMPHASE_LINK,	 /**< writing or linking node_modules */
	PMBENCH_PMPHASE_SCRIPTS, /**< lifecycle scripts */
	PMBENCH_PMPHASE_SAVE,	 /**< writing the lockfile */
	PMBENCH_PMPHASE_OTHER,	 /**< anything else the PM names */
	PMBENCH_PMPHASE_TOTAL,	 /**< the PM's own figure for its whole run */
	PMBENCH_PMPHASE_KINDS
};

enum pmbench_pm_phase_flags {
	/**
	 * Timed by pmbench from when the PM's lines arrived, not by the
	 * PM: an upper bound on when its step started and ended.
	 */
	PMBENCH_PMPHASE_ARRIVAL = (1 << 0),
};

/** Phase names are at most this long (bytes). */
#define PMBENCH_PMPHASE_NAME_MAX 64

/** One phase a PM's timers named. */
struct pmbench_pm_phase {
	/**
	 * As the PM names it ("idealTree", "reify:unpack", "resolution"):
	 * 1 to PMBENCH_PMPHASE_NAME_MAX bytes of printable ASCII.
	 */
	char *name;
	enum pmbench_pm_phase_kind kind;
	double start;	/**< seconds after the spawn, or -1: unknown */
	double seconds; /**< its duration, >= 0 */
	double count;	/**< what the PM counted in it (packages), or -1 */
	unsigned flags; /**< enum pmbench_pm_phase_flags */
};

/** The phases of one run, in the order the PM ended them. */
struct pmbench_pm_phases {
	struct pmbench_pm_phase *v;
	size_t nr, alloc;
};

#define PMBENCH_PM_PHASES_INIT \
	{                      \
		.v = NULL      \
	}

/**
 * Append a phase with a copy of `name` (cut at PMBENCH_PMPHASE_NAME_MAX
 * bytes, every byte that is not printable ASCII made '?'). A phase whose
 * figures are not finite, whose duration is negative or above a year, or
 * whose name is empty is left out: returns 1 when it was added, else 0.
 * A negative or non-finite start or count becomes -1.
 */
int pmbench_pm_phases_add(struct pmbench_pm_phases *p, const char *name,
			  enum pmbench_pm_phase_kind kind, double start,
			  double seconds, double count, unsigned flags);

/** The first phase named `name`, or NULL. */
const struct pmbench_pm_phase *
pmbench_pm_phases_find(const struct pmbench_pm_phases *p, const char *name);

void pmbench_pm_phases_release(struct pmbench_pm_phases *p);

/** "startup", "resolve", "fetch", "link", "scripts", "save", "other", "total". */
const char *pmbench_pm_phase_kind_name(enum pmbench_pm_phase_kind kind);

/** The kind named `name` (pmbench_pm_phase_kind_name()), or -1. */
int pmbench_pm_phase_kind_get(const char *name);

/* ---- Transcripts --------------------------------------------------------- */

/** The longest line a transcript line keeps (the rest is cut). */
#define PMBENCH_TLINE_MAX 4096

/** One line of a transcript. */
struct pmbench_tline {
	double at; /**< arrival, seconds after the spawn; -1: unknown */
	size_t len;
	char text[PMBENCH_TLINE_MAX + 1]; /**< NUL-terminated, no line end */
};

/**
 * The next line of the transcript between `*pos` and `end` into `out`,
 * advancing `*pos`. Returns 1, or 0 at the end. Any bytes are taken
 * (NULs end the text early); a carriage return before the line end is
 * dropped.
 */
int pmbench_transcript_next(struct pmbench_tline *out, const char **pos,
			    const char *end);

/** Append one line ("SECONDS\tTEXT\n") to the transcript `out`. */
void pmbench_transcript_add(struct pmbench_buf *out, double at,
			    const char *text, size_t len);

#endif

/*
 * The readers of the PMs' own timers (src/engine/pm/pmtimer.c), reached
 * through the PM table as bench --explain reaches them, and the
 * transcript lines they read: a PM's output is text pmbench does not
 * control. Every PM's reader gets the whole input. Properties: every
 * phase has a name of 1 to PMBENCH_PMPHASE_NAME_MAX printable ASCII
 * bytes, a known kind, a duration from 0 to a year, a start and a count
 * that are -1 or finite and not negative, and no flag but ARRIVAL; the
 * count returned is the number added; a transcript line is never longer
 * than its limit.
 */
#include "pmbench/common.h"

#include <math.h>

#include "fuzz.h"
#include "pmbench/pm.h"
#include "pmbench/pmtimer.h"

static void check_phase(const struct pmbench_pm_phase *ph, const char *pm)
{
	size_t n = strlen(ph->name);

	if (!n || n > PMBENCH_PMPHASE_NAME_MAX)
		FUZZ_FAIL("%s: a phase name of %zu bytes", pm, n);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)ph->name[i] < 0x20 ||
		    (unsigned char)ph->name[i] > 0x7e)
			FUZZ_FAIL("%s: byte %zu of a phase name is 0x%02x", pm,
				  i, (unsigned char)ph->name[i]);
	if ((unsigned)ph->kind >= PMBENCH_PMPHASE_KINDS)
		FUZZ_FAIL("%s: phase '%s' of kind %d", pm, ph->name, ph->kind);
	if (!isfinite(ph->seconds) || ph->seconds < 0 ||
	    ph->seconds > 365.0 * 86400.0)
		FUZZ_FAIL("%s: phase '%s' lasts %g s", pm, ph->name,
			  ph->seconds);
	if (!isfinite(ph->start) || (ph->start < 0 && ph->start != -1))
		FUZZ_FAIL("%s: phase '%s' starts at %g", pm, ph->name,
			  ph->start);
	if (!isfinite(ph->count) || (ph->count < 0 && ph->count != -1))
		FUZZ_FAIL("%s: phase '%s' counts %g", pm, ph->name, ph->count);
	if (ph->flags & ~(unsigned)PMBENCH_PMPHASE_ARRIVAL)
		FUZZ_FAIL("%s: phase '%s' has flags %u", pm, ph->name,
			  ph->flags);
}

static void lines(const char *text, size_t len)
{
	struct pmbench_tline l;
	const char *pos = text, *end = text + len;
	size_t n = 0;

	while (pmbench_transcript_next(&l, &pos, end)) {
		if (l.len > PMBENCH_TLINE_MAX || strlen(l.text) != l.len)
			FUZZ_FAIL("a transcript line of %zu bytes", l.len);
		if (l.at != -1 && (!isfinite(l.at) || l.at < 0))
			FUZZ_FAIL("a line arrived at %g", l.at);
		if (++n > len + 1)
			FUZZ_FAIL("more lines than bytes");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;

	lines(text, size);
	for (size_t i = 0; i < pmbench_pms_nr; i++) {
		const struct pmbench_pm *pm = &pmbench_pms[i];
		struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
		int n;

		if (!pm->timer_parse)
			continue;
		n = pm->timer_parse(&p, text, size);
		if (n < 0 || (size_t)n != p.nr)
			FUZZ_FAIL("%s: returned %d for %zu phases", pm->name, n,
				  p.nr);
		for (size_t k = 0; k < p.nr; k++)
			check_phase(&p.v[k], pm->name);
		pmbench_pm_phases_release(&p);
	}
	return 0;
}

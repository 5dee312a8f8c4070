#include "pmbench/common.h"

#include "pmbench/scenario.h"
#include "pmbench/strvec.h"

#define C  PMBENCH_STATE_CACHE
#define LK PMBENCH_STATE_LOCKFILE
#define NM PMBENCH_STATE_NODE_MODULES

const unsigned pmbench_scenarios_all[8] = {
	0, C, LK, NM, C | LK, C | NM, LK | NM, C | LK | NM,
};
const unsigned pmbench_scenarios_default[4] = { 0, LK, C | LK, C | LK | NM };

static const char *const names[8] = {
	"clean",
	"cache",
	"lockfile",
	"cache+lockfile",
	"node_modules",
	"cache+node_modules",
	"lockfile+node_modules",
	"cache+lockfile+node_modules",
};

const char *pmbench_scenario_name(unsigned state)
{
	return names[state & 7];
}

int pmbench_scenario_parse(unsigned *out, const char *name)
{
	struct pmbench_strvec parts = PMBENCH_STRVEC_INIT;
	unsigned state = 0;
	int ret = 0;

	if (!strcmp(name, "clean")) {
		*out = 0;
		return 0;
	}
	pmbench_strvec_split(&parts, name, '+');
	if (!parts.nr)
		ret = PMBENCH_EINVALID;
	for (size_t i = 0; i < parts.nr && !ret; i++) {
		unsigned bit;

		if (!strcmp(parts.v[i], "cache"))
			bit = C;
		else if (!strcmp(parts.v[i], "lockfile"))
			bit = LK;
		else if (!strcmp(parts.v[i], "node_modules"))
			bit = NM;
		else
			bit = 0;
		if (!bit || (state & bit))
			ret = PMBENCH_EINVALID;
		state |= bit;
	}
	pmbench_strvec_release(&parts);
	if (ret)
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"unknown scenario '%s'; use 'clean' or cache, lockfile "
			"and node_modules joined with '+' (e.g. "
			"'cache+lockfile')",
			name);
	*out = state;
	return 0;
}

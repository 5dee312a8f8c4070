#ifndef PMBENCH_SCENARIO_H
#define PMBENCH_SCENARIO_H

/**
 * Scenarios: the eight states of {cache, lockfile, node_modules}, named as
 * pnpm's benchmark names them. pmbench_workspace_prepare() (workspace.h)
 * puts a PM's scratch copy into exactly one of them.
 */
enum pmbench_state {
	PMBENCH_STATE_CACHE = (1 << 0),
	PMBENCH_STATE_LOCKFILE = (1 << 1),
	PMBENCH_STATE_NODE_MODULES = (1 << 2),
};

/** All eight, in the order pnpm's table uses. */
extern const unsigned pmbench_scenarios_all[8];
/** The default set: clean, lockfile, cache+lockfile, all three. */
extern const unsigned pmbench_scenarios_default[4];

/**
 * Parse "clean", "cache", "lockfile+cache", ... (parts in any order,
 * "all" is not a scenario). Returns 0 or PMBENCH_EINVALID.
 */
int pmbench_scenario_parse(unsigned *out, const char *name);

/** The canonical name ("cache+lockfile+node_modules"); static storage. */
const char *pmbench_scenario_name(unsigned state);

#endif

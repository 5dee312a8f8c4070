#ifndef PMBENCH_ENVIRONMENT_H
#define PMBENCH_ENVIRONMENT_H

struct pmbench_ctx;
struct pmbench_result;

/**
 * Record how pmbench measures and what reached the PMs in `r`'s
 * environment: timer, CPU and memory methods, work counters (said once
 * through `ctx` when instructions cannot be counted), network and
 * registry, the work folder's file system, the user's ~/.npmrc, the
 * names of inherited PM variables, the resolver, node's version and
 * path (asked in `scratch`, a folder outside any project). The machine
 * itself is pmbench_result_collect_sysinfo()'s.
 */
void pmbench_environment_record(struct pmbench_ctx *ctx,
				struct pmbench_result *r, const char *scratch);

#endif

#ifndef PMBENCH_ENGINE_NODE_REGISTRY_H
#define PMBENCH_ENGINE_NODE_REGISTRY_H

/*
 * What node.c asks of the registry, from node_install.c (private to the
 * two).
 */
#include "pmbench/strvec.h"

struct pmbench_ctx;

/*
 * Where Node installations come from, ending with '/':
 * $PMBENCH_NODE_REGISTRY, else the registry mirror's uplink, else the
 * user's npm config's (pmbench_registry_upstream()). Free it.
 */
char *pmbench_node_registry_url(struct pmbench_ctx *ctx);

/* Every version `package` has in `registry`, into `out`. */
int pmbench_node_registry_versions(struct pmbench_strvec *out,
				   struct pmbench_ctx *ctx,
				   const char *registry, const char *package);

#endif

#ifndef PMBENCH_ENGINE_NODE_REGISTRY_H
#define PMBENCH_ENGINE_NODE_REGISTRY_H

/*
 * What node.c and the PM versions (pm/version.c) ask of the registry,
 * from node_install.c (private to the engine): packuments, and tarballs
 * checked against their sha512 integrity before the confined extraction
 * writes them.
 */
#include "pmbench/strvec.h"

struct pmbench_ctx;
struct cJSON;

/* A tarball's place in a packument: its URL and sha512 integrity. */
struct pmbench_npm_tarball {
	const char *package;
	char *version;
	char *url;
	char *integrity;
};

void pmbench_npm_tarball_release(struct pmbench_npm_tarball *t);

/* The abbreviated packument of `package` (its "versions" checked). */
int pmbench_npm_packument(struct cJSON **out, struct pmbench_ctx *ctx,
			  const char *registry, const char *package);

/* The tarball of `version` in packument `root`, into `out` (package set). */
int pmbench_npm_tarball_of(struct pmbench_npm_tarball *out,
			   const struct cJSON *root, const char *version);

/*
 * Download `t`, check its integrity, and extract its "package/..."
 * entries into `dest`, confined to `confine`; `label` for progress.
 */
int pmbench_npm_unpack(struct pmbench_ctx *ctx,
		       const struct pmbench_npm_tarball *t, const char *dest,
		       const char *confine, const char *label);

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

#ifndef PMBENCH_CONF_H
#define PMBENCH_CONF_H

#include <stddef.h>

/**
 * Reading package managers' configuration files, only as far as telling
 * which settings they make: `.npmrc` (ini), yarn 1's `.yarnrc`, a YAML
 * subset (`.yarnrc.yml`, `pnpm-workspace.yaml`) and a TOML subset
 * (`bunfig.toml`). Each gives a flat list of settings: a key (nested
 * ones joined by ".": bunfig's `[install] linker` is "install.linker",
 * YAML's `packageExtensions:` children "packageExtensions.<key>") and its
 * value as text, quotes removed (a YAML or TOML list or table as it is
 * written, cut at 200 bytes). Nothing here fails on strange input: a line
 * that is none of the format's is skipped. Values may hold credentials:
 * print them through text.h.
 */

enum pmbench_conf_format {
	PMBENCH_CONF_INI,    /**< .npmrc: key=value, ; and # comments */
	PMBENCH_CONF_YARNRC, /**< yarn 1: key value, "quoted" either */
	PMBENCH_CONF_YAML,   /**< key: value, two levels of mappings */
	PMBENCH_CONF_TOML,   /**< [table] and key = value */
};

struct pmbench_conf_entry {
	char *key;
	char *value;
	unsigned line; /**< 1-based line it is set on */
};

/** Settings in file order; a key set twice appears twice. */
struct pmbench_conf {
	struct pmbench_conf_entry *v;
	size_t nr, alloc;
};

#define PMBENCH_CONF_INIT \
	{                 \
		.v = NULL \
	}

/** Append the settings `text` (`len` bytes, NULs allowed) makes. */
void pmbench_conf_parse(struct pmbench_conf *out, enum pmbench_conf_format fmt,
			const char *text, size_t len);

/** Append one setting (copies both). */
void pmbench_conf_add(struct pmbench_conf *c, const char *key,
		      const char *value, unsigned line);

/**
 * The last value set for `key`, or NULL. Keys compare with '_' and '-'
 * alike and case-insensitively past a leading run of '_' (npm reads
 * `legacy_peer_deps` as `legacy-peer-deps`); see pmbench_conf_key_eq().
 */
const char *pmbench_conf_get(const struct pmbench_conf *c, const char *key);

/**
 * Whether two setting names are the same setting: equal once case is
 * ignored and every '_' is read as '-' (after any leading '_', which
 * stays: npm's `_auth` is no `-auth`).
 */
int pmbench_conf_key_eq(const char *a, const char *b);

void pmbench_conf_release(struct pmbench_conf *c);

#endif

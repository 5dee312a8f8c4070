#ifndef PMBENCH_PM_H
#define PMBENCH_PM_H

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;
struct pmbench_pm_phases;

/**
 * The package-manager table. Everything pmbench knows about one package
 * manager sits in one `struct pmbench_pm` entry in src/engine/pm/pm.c:
 * how its binary is found and how its version is asked (pmfind.h does
 * both), how it installs, which lockfiles it writes and how they are
 * told apart, its packageManager name, its store folders and install
 * state, where its caches go and how they are redirected, how colour,
 * progress, prompts and update checks are turned off, how to read its
 * failures and which traps they show.
 * Nothing outside pm.c knows a PM by name: it asks the table.
 *
 * A variant (`npm:linked`, `yarn-berry:pnp`) is one entry of the variant
 * table there: a PM with a configuration, measured like a PM of its own.
 *
 * Templates in `env` and the argument lists may use {cache} (this PM's
 * own folder under cache/pm/<pm>/) and {home} (the HOME it runs with).
 */

/** What a PM does with dependencies' lifecycle scripts by default. */
enum pmbench_pm_scripts {
	PMBENCH_SCRIPTS_ALL,	/**< runs every install script */
	PMBENCH_SCRIPTS_NONE,	/**< runs none unless allowed */
	PMBENCH_SCRIPTS_TRUSTED /**< runs only a built-in trusted list */
};

/**
 * What a benchmark asks of dependencies' install scripts (`--scripts`):
 * each PM as it comes, none run, or every one run.
 */
enum pmbench_scripts_choice {
	PMBENCH_SCRIPTS_AS_IS = 0, /**< "default": the PM's own policy */
	PMBENCH_SCRIPTS_RUN_NONE,  /**< "none" */
	PMBENCH_SCRIPTS_RUN_ALL,   /**< "all" */
};

/**
 * How a PM is told one scripts choice (struct pmbench_pm's `scripts_way`):
 * arguments after its install arguments, environment after its own;
 * both NULL with `refusal` NULL: its default already does it. `source`
 * is the PM's documentation that says so.
 */
struct pmbench_pm_scripts_way {
	const char *const *args;
	const char *const *env;
	/**
	 * A field of the project's package.json that lists the packages
	 * whose scripts the PM runs (bun's trustedDependencies), or NULL:
	 * pmbench lists there every package the priming found with an
	 * install script, then installs once more, untimed.
	 */
	const char *trust_field;
	/** Why the PM cannot be told it ("not possible: ..."), or NULL. */
	const char *refusal;
	const char *source;
	/**
	 * A setting told beside the choice itself, said after what the PM
	 * was told ("side-effects cache off: ..."), or NULL; `why_source`
	 * is the PM's documentation of that setting.
	 */
	const char *why;
	const char *why_source;
};

/** What a PM (mostly a variant) cannot do like the others. */
enum pmbench_pm_caps {
	/**
	 * It installs no node_modules (yarn's Plug'n'Play: packages stay
	 * in zip archives, mapped by .pnp.cjs): there is no node_modules
	 * size to measure, and the "node_modules" state is its state
	 * files (`state_paths`).
	 */
	PMBENCH_PM_NO_NODE_MODULES = (1 << 0),
	/**
	 * bench's default baseline (`--baseline`): the PM the others are
	 * measured against, as a migration is (vlt's benchmarks label npm
	 * so). One entry has it.
	 */
	PMBENCH_PM_BASELINE = (1 << 1),
	/**
	 * Its CI install (`frozen_args`) deletes node_modules before it
	 * installs, every time: a node_modules restored from a cache
	 * saves it nothing (npm ci: "If a node_modules is already
	 * present, it will be automatically removed before npm ci begins
	 * its install"). The fake PM does what this says (the ci-cache
	 * tests check it against the table).
	 */
	PMBENCH_PM_FROZEN_CLEARS = (1 << 2),
};

/**
 * A known trap: when a failure's output contains `pattern` (and `also`,
 * unless NULL), `hint` says what it was and what to put in the manifest.
 */
struct pmbench_pm_hint {
	const char *pattern;
	const char *also;
	const char *hint;
};

/** What a PM does differently on a type of file system. */
struct pmbench_pm_fs_note {
	const char *type; /**< as /proc/self/mountinfo says: "overlay" */
	const char *note; /**< for the result and a warning */
};

/** The rules of a run's state check (statecheck.h). */
enum pmbench_check_rule {
	/** an empty cache downloads every tarball the tree needs */
	PMBENCH_RULE_COLD_TARBALLS,
	/** a warm cache downloads no tarball */
	PMBENCH_RULE_WARM_TARBALLS,
	/** with a lockfile, no packument is asked for */
	PMBENCH_RULE_LOCK_PACKUMENTS,
	/** with a lockfile, the lockfile is the same after the run */
	PMBENCH_RULE_LOCK_CHANGED,
	/** with node_modules in place, nothing is written into it */
	PMBENCH_RULE_NM_UNTOUCHED,
};

/**
 * A documented way a PM breaks one rule of the state check: the check
 * says "known" with `why` and `source` instead of failing.
 */
struct pmbench_pm_known {
	enum pmbench_check_rule rule;
	/**
	 * A part of the cell's PM configuration (pmbench_pm_conf_scan()'s
	 * "key=value") it needs, or NULL: always.
	 */
	const char *config;
	const char *why;    /**< what the PM does and why, measured */
	const char *source; /**< the PM's docs or source that say it */
};

/** A configuration file a PM reads (struct pmbench_pm_conf). */
struct pmbench_pm_conf_file {
	/** In the project ("pnpm-workspace.yaml"), or "~/.npmrc": HOME's. */
	const char *path;
	int format; /**< enum pmbench_conf_format, or -1: JSON */
	/** JSON: the object holding the settings ("pnpm"), or NULL. */
	const char *member;
};

/** A setting that changes the work measured, and what it changes. */
struct pmbench_pm_conf_warn {
	const char *key;
	const char *value; /**< the value that warns ("true") */
	const char *warning;
};

/**
 * The configuration a PM reads and the keys of it that change the work
 * (pmbench_pm_conf_scan()): stated in the result, warned about.
 */
struct pmbench_pm_conf {
	const struct pmbench_pm_conf_file *files; /**< NULL path ends */
	const char *const *keys; /**< the keys that change the work */
	const struct pmbench_pm_conf_warn *warns; /**< NULL key ends */
};

/**
 * A failure of a repo as it is that one change to the repo makes go
 * away (a workspace the PM reads differently from the one the repo was
 * written for): when a failure's output contains `pattern` (and `also`,
 * unless NULL) and `check`, if not NULL, says it applies to the project
 * the command ran in, `fix` says the change, which the PM's recipe step
 * `change` makes (`pmbench migrate --to <pm>`).
 */
struct pmbench_pm_fix {
	const char *pattern;
	const char *also;
	/**
	 * NULL, or a test of the failure's `text` against the project
	 * folder: 1 when the fix applies (the package a 404 was for is one
	 * of the repo's own workspace packages). Without a project folder
	 * a fix with a check is never given.
	 */
	int (*check)(const char *text, const char *project);
	const char *fix;
	const char *change; /**< the recipe step's id, or NULL */
};

struct pmbench_recipe;
struct pmbench_pm_change;

/**
 * A recipe step's callback (recipe.h lists them): edits the project of
 * `r` as `step` says, through the recipe's file functions.
 */
typedef int (*pmbench_pm_change_cb)(struct pmbench_recipe *r,
				    const struct pmbench_pm_change *step);

/** When a recipe step (struct pmbench_pm_change) applies. */
enum pmbench_pm_change_when {
	/** Always (the step's callback may still find nothing to do). */
	PMBENCH_CHANGE_ALWAYS = 0,
	/**
	 * Only when a workspace package asks for another by a plain version
	 * or range (no workspace: protocol), which some PMs do not link.
	 */
	PMBENCH_CHANGE_IF_PLAIN_REFS = (1 << 0),
};

/**
 * One change of a migration recipe: what a team changes in its repo when
 * it moves to this PM (recipe.h runs them). The list ends with a NULL id.
 */
struct pmbench_pm_change {
	const char *id;	  /**< "link-workspace-packages", for --choose */
	const char *what; /**< for people: the change and why the PM needs it */
	/**
	 * The choice it is an alternative of, or NULL: steps with the same
	 * choice are alternatives, the first one the default.
	 */
	const char *choice;
	pmbench_pm_change_cb apply;
	const char *file; /**< the file it edits, if one callback serves many */
	const char *arg;  /**< the callback's argument, or NULL */
	unsigned when;	  /**< enum pmbench_pm_change_when */
};

/**
 * A variant: a PM with a configuration (a linker, an install strategy),
 * measured as a PM of its own, with its own column, cache and work
 * folder. Everything not set here is its base's.
 */
struct pmbench_pm_variant {
	const char *name;	   /**< "<base>:<what>", e.g. "npm:linked" */
	const char *base;	   /**< the PM it configures: "npm" */
	const char *title;	   /**< for humans */
	const char *const *args;   /**< after its install and CI arguments */
	const char *const *env;	   /**< after its base's environment */
	unsigned caps;		   /**< enum pmbench_pm_caps */
	const char *const *stores; /**< its store folders, if not the base's */
	/** Its node_modules layout, for humans ("Plug'n'Play"). */
	const char *linker;
	/** Replaces the base's run words (bun's "--bun", "run"), or NULL. */
	const char *const *run_args;
	/** What its scripts run under, if not Node: "bun". */
	const char *runtime;
};

/**
 * A PM published as a binary per platform: for machine `machine`
 * (uname's "x86_64"), the npm package `package` of the same version holds
 * the binary at `bin` inside it.
 */
struct pmbench_pm_platform {
	const char *machine;
	const char *package;
	const char *bin;
};

struct pmbench_pm {
	const char *name;  /**< "npm", "yarn", "yarn-berry", ... */
	const char *title; /**< for humans: "yarn 1 (classic)" */
	/** What the world calls its binary, if not `name` ("yarn"). */
	const char *command_name;
	const char *npm_package; /**< what ci/setup installs, or NULL */
	/**
	 * Its binary per platform, ending with { 0 }, or NULL: it runs its
	 * package's own `bin` under Node (a release installed on request).
	 */
	const struct pmbench_pm_platform *platforms;
	/**
	 * `platforms` only for a release whose optionalDependencies name
	 * its platform package (pnpm 12's native binary: its `pnpm` is a
	 * shim that needs it); an older release runs its package's `bin`.
	 */
	int platforms_if_named;
	const char *toolchain_bin; /**< below the toolchain folder, or NULL */
	/**
	 * Its binary as a Node installation has it, in the folder of the
	 * Node in use ("npm": <prefix>/bin/npm), looked at before the
	 * toolchain and PATH; NULL: it comes with no Node.
	 */
	const char *node_bin;
	const char *const *path_names; /**< tried on PATH, in order */
	int major_min;		       /**< accepted major versions */
	int major_max;
	const char *const *version_args;
	/**
	 * What comes before the version in the first line of its answer
	 * ("deno " of "deno 2.9.6 (stable, ...)"), or NULL: the version
	 * is that line's first word either way.
	 */
	const char *version_prefix;
	const char *const *install_args; /**< after the binary */
	const char *const *frozen_args; /**< CI mode: lockfile must not change */
	/**
	 * Lockfile only: resolve and write the lockfile, install nothing
	 * (the resolve task). NULL: the PM has no such mode (yarn 1).
	 */
	const char *const *resolve_args;
	const char *const *run_args; /**< "run" / "task" before the script */
	int run_dashdash;	     /**< needs "--" before script arguments */
	/**
	 * Runs the release a repo commits and names in .yarnrc.yml's
	 * yarnPath, as yarn berry does:
	 * https://yarnpkg.com/configuration/yarnrc#yarnPath
	 */
	int yarn_path;
	const char *const *lockfiles; /**< first: the one it writes */
	/**
	 * Whether a file named like one of `lockfiles` is this PM's, from
	 * its first bytes (NUL-terminated; see pmbench_pm_lockfile_owner()):
	 * yarn 1 and yarn 4 both write yarn.lock. NULL: the name says it.
	 */
	int (*lockfile_sniff)(const char *head);
	/**
	 * A file the PM needs in the project folder to take it as its root
	 * (yarn 4 climbs to the nearest folder with a yarn.lock): written
	 * empty when a scenario has no lockfile. NULL: none.
	 */
	const char *root_file;
	/**
	 * Its name in package.json's "packageManager" ("pnpm@9.1.0");
	 * PMs sharing one name (yarn@1, yarn@4) are told apart by
	 * major_min..major_max. NULL: it has none.
	 */
	const char *package_manager;
	/**
	 * Folders inside node_modules that hold the packages rather than
	 * being one (pnpm's .pnpm): <store>/<id>/node_modules/<name> or
	 * <store>/<id>/package. NULL: none.
	 */
	const char *const *stores;
	const char *const *state_paths; /**< install state besides node_modules */
	const char *const *env;		/**< "K=V" templates, "K" unsets */
	/**
	 * "K=V" settings that pin what CI detection would change (its
	 * frozen lockfile): set with `env` for every command, but not in a
	 * `--ci` run's timed commands (pmbench_pm_ci_env()), where the PM's
	 * own CI default decides; the documentation's URL beside each
	 * entry. NULL: none.
	 */
	const char *const *ci_pins;
	/**
	 * Settings of `env` that a release older than major `env_since`
	 * rejects as unknown, unset for it ("K"), with the documentation's
	 * URL beside the entry: yarn 2 and 3 stop on yarn 4's
	 * enableHardenedMode ("Unrecognized or legacy configuration settings
	 * found"). 0: none.
	 */
	int env_since;
	const char *const *env_unknown_before;
	/**
	 * How it is pointed at the local registry mirror (registry.h):
	 * "K=V" with {registry} for the mirror's URL ("http://127.0.0.1:
	 * PORT/"). NULL: it cannot be.
	 */
	const char *const *registry_env;
	/** Prefixes of the caller's variables that change what it does. */
	const char *const *env_prefixes;
	/**
	 * What it keeps in its temp folder for its next run, besides
	 * Node's compile cache (yarn 1's "v8-compile-cache-"; a name ending
	 * in '-' is a prefix); see pmbench_pm_tmp_cache(). NULL: none.
	 */
	const char *const *tmp_caches;
	/**
	 * How the file system under the work folder changes what it does
	 * (pnpm on overlayfs), ending with a NULL type; NULL: nothing.
	 */
	const struct pmbench_pm_fs_note *fs_notes;
	/** The configuration it reads and what changes the work. */
	const struct pmbench_pm_conf *conf;
	/**
	 * Its documented exceptions to the state check, ending with a NULL
	 * `why`; NULL: none.
	 */
	const struct pmbench_pm_known *known;
	/**
	 * ci-cache's store strategy: the question actions/setup-node asks
	 * for the folder it caches (NULL: setup-node has none for it), and
	 * the variable pmbench points at that folder (the answer when
	 * there is no question, and the fallback).
	 */
	const char *const *store_query;
	const char *store_var;
	enum pmbench_pm_scripts scripts;
	const char *scripts_note; /**< how it treats install scripts */
	/**
	 * `scripts_note` for a release older than major `env_since`, when
	 * it differs (yarn 2 and 3: enableScripts defaults to true), else
	 * NULL.
	 */
	const char *scripts_note_before;
	/**
	 * How it is told `--scripts none` and `--scripts all`, indexed by
	 * enum pmbench_scripts_choice (entry 0, as it comes, is unused).
	 */
	struct pmbench_pm_scripts_way scripts_way[3];
	/** How its output starts the line naming skipped scripts. */
	const char *const *scripts_said;
	/**
	 * Migration: the PMs whose lockfile this PM's install converts by
	 * itself (NULL: none), and the PMs whose lockfile its import
	 * command (`import_args`) turns into its own.
	 */
	const char *const *migrate_reads;
	const char *const *import_args;
	const char *const *import_from;
	/**
	 * Reading a failed command's output: substrings of the line that
	 * names the cause, best first (the first pattern that some line
	 * matches wins, and its first such line; a leading "^" anchors it
	 * at the line's start), and lines that look like errors but never
	 * say why (npm's log path, yarn's "info Visit ..."). NULL: none.
	 */
	const char *const *fail_causes;
	const char *const *fail_noise;
	/** Its known traps, ending with a NULL pattern; NULL: none. */
	const struct pmbench_pm_hint *hints;
	/**
	 * Failures of a repo as it is and the change that makes it install
	 * (tried before the traps), ending with a NULL pattern; NULL: none.
	 */
	const struct pmbench_pm_fix *fixes;
	/**
	 * Migration: what a team changes in its repo to move to this PM,
	 * in order, ending with a NULL id (recipe.h); NULL: nothing.
	 */
	const struct pmbench_pm_change *recipe;
	/*
	 * Set for a variant (pmbench_pm_get() builds its entry from its
	 * base's and the variant's): the base's name, the variant, what
	 * it cannot do and its layout. A PM has NULL and 0 here.
	 */
	const char *base;
	const struct pmbench_pm_variant *variant;
	unsigned caps;
	const char *linker;
	/**
	 * What `<pm> run` runs scripts and their bins under: NULL for
	 * Node (the node first on PATH), "bun" for bun's own runtime.
	 */
	const char *runtime;
	/**
	 * `bench --explain`: how its own timers are switched on, in untimed
	 * runs of their own after the timed ones (a timed run never
	 * carries them): arguments after its install arguments (a
	 * variant's included), environment after its own. Either may be
	 * NULL (yarn 4 prints its steps' times in every run). `timer_how`
	 * says it for humans: "--timing".
	 */
	const char *const *timer_args;
	const char *const *timer_env;
	const char *timer_how;
	/**
	 * Read a transcript of such a run (pmtimer.h: each line with the
	 * time it arrived) into phases; returns how many it found. NULL:
	 * the PM has no timers of its own.
	 */
	int (*timer_parse)(struct pmbench_pm_phases *out,
			   const char *transcript, size_t len);
	/**
	 * A version asked for with the name (`pnpm@9`, `pnpm@9.15.0:hoisted`:
	 * the version before the variant; pmbench_pm_get() builds the
	 * entry): the range after '@' ("9", "^9.1", "9.15.0"), installed
	 * from the registry into the toolchain's versions/ folder
	 * (pmversion.h) and found there only; PMBENCH_PM_PINNED for
	 * `<pm>@pinned`, the pinned one even where the repo names its own.
	 * NULL: none asked.
	 */
	const char *version;
	/** The entry without the version ("pnpm:hoisted"), or NULL. */
	const char *unversioned;
	/** Its folder name ('@' kept, ':' made '_'), or NULL: as a PM's. */
	const char *folder;
	/**
	 * For an older major of a versioned entry: the environment that
	 * release reads instead of `env`'s (pnpm before 11 reads npm_config_*,
	 * not pnpm_config_*), pushed after it; NULL: none.
	 */
	const char *const *version_env;
};

/** The version of `<pm>@pinned`. */
#define PMBENCH_PM_PINNED "pinned"

/** Every PM but the variants, in the default order. */
extern const struct pmbench_pm pmbench_pms[];
extern const size_t pmbench_pms_nr;

/** How `pm` starts from the lockfile of the PM named `from`. */
enum pmbench_pm_route {
	PMBENCH_ROUTE_OWN,    /**< it is its own lockfile */
	PMBENCH_ROUTE_READS,  /**< its install converts the lockfile */
	PMBENCH_ROUTE_IMPORT, /**< its import command converts it first */
	PMBENCH_ROUTE_FRESH   /**< it cannot use it: fresh resolution */
};

/**
 * The route from the lockfile of `from` (a PM or variant name) to `pm`.
 * A variant starts from its base's lockfile like its base does.
 */
enum pmbench_pm_route pmbench_pm_route(const struct pmbench_pm *pm,
				       const char *from);

/**
 * Look a PM or a variant up by name; NULL if there is none. A name may
 * carry a version between the PM and the variant: `<pm>@<range>` or
 * `<pm>@<range>:<what>` (`pnpm@9`, `pnpm@9.15.0:hoisted`, `pnpm@pinned`),
 * an entry of its own built on first ask (struct pmbench_pm's
 * `version`).
 */
const struct pmbench_pm *pmbench_pm_get(const char *name);

/**
 * Like pmbench_pm_get(), with an error saying what is wrong with the
 * name (an unknown PM, a version that is no range, yarn 2+ spelled
 * `yarn@`): 0, or PMBENCH_EINVALID.
 */
int pmbench_pm_lookup(const struct pmbench_pm **out, const char *name);

/**
 * The default baseline among `pms` (names, variants allowed): the one
 * whose table entry has PMBENCH_PM_BASELINE, else its base's, else the
 * first name; NULL when `nr` is 0. Points into `pms`.
 */
const char *pmbench_pm_default_baseline(const char *const *pms, size_t nr);

/**
 * The `i`th of every PM and variant (the PMs in the default order, then
 * the variants); NULL when `i` is past the last.
 */
const struct pmbench_pm *pmbench_pm_nth(size_t i);

/** The names of every PM and variant, NULL-terminated; static storage. */
const char *const *pmbench_pm_names(void);

enum pmbench_pm_join_flags {
	PMBENCH_PM_JOIN_VARIANTS = (1 << 0), /**< the variants too */
	PMBENCH_PM_JOIN_OR = (1 << 1)	     /**< "a, b or c" */
};

/**
 * Append the PM names to `out`, joined by `sep` (the last one by " or "
 * with PMBENCH_PM_JOIN_OR), for help texts and error messages.
 */
void pmbench_pm_join_names(struct pmbench_buf *out, const char *sep,
			   unsigned flags);

/** The PM a variant configures; a PM itself for a PM. */
const struct pmbench_pm *pmbench_pm_base(const struct pmbench_pm *pm);

/**
 * The name as a folder name ("npm:linked" becomes "npm_linked": a ':'
 * in a path breaks PATH-like lists); static storage.
 */
const char *pmbench_pm_folder(const struct pmbench_pm *pm);

/** What the world calls its binary: "yarn" for yarn-berry and its variants. */
const char *pmbench_pm_command_name(const struct pmbench_pm *pm);

/**
 * Append a variant's configuration to `out`, for the result and
 * legends: "npm with --install-strategy=linked". Nothing for a PM.
 */
void pmbench_pm_config(struct pmbench_buf *out, const struct pmbench_pm *pm);

/** How many bytes of a lockfile the sniffers see. */
#define PMBENCH_PM_LOCK_HEAD 65536

/**
 * Which PM wrote the lockfile at `path`: the first PM (never a variant)
 * that lists its file name and whose sniffer, if any, accepts its first
 * PMBENCH_PM_LOCK_HEAD bytes. NULL when it is missing, unreadable,
 * empty, or nobody's. Lockfiles of any size are told apart alike.
 */
const struct pmbench_pm *pmbench_pm_lockfile_owner(const char *path);

/** Whether the lockfile at `path` is `pm`'s (its base's, for a variant). */
int pmbench_pm_owns_lockfile(const struct pmbench_pm *pm, const char *path);

/**
 * The PM a package.json "packageManager" value names ("yarn@4.1.0+sha512..."
 * is yarn-berry, "yarn@1.22.22" is yarn), or NULL. A value without a
 * version that the major cannot tell goes to the newest of them.
 */
const struct pmbench_pm *pmbench_pm_from_package_manager(const char *value);

/** Whether some PM keeps packages in node_modules/`name` (".pnpm"). */
int pmbench_pm_is_store(const char *name);

/**
 * The hint for a failure of `pm` (NULL: a command that is no PM's)
 * whose output is `text`: the PM's own traps first, then those any
 * command can fall into (native builds, downloads). Static storage, or
 * NULL when nothing matches.
 */
const char *pmbench_pm_hint(const struct pmbench_pm *pm, const char *text);

/**
 * Like pmbench_pm_hint(), first trying `pm`'s fixes (struct
 * pmbench_pm_fix) against the project in folder `project` (may be NULL):
 * a failure of a repo as it is says the change that makes it install.
 */
const char *pmbench_pm_hint_in(const struct pmbench_pm *pm, const char *text,
			       const char *project);

/**
 * Whether the variable `name` (of the caller's environment) may change
 * what some PM does (npm_config_*, YARN_*, ..., NODE_*, COREPACK_*).
 */
int pmbench_pm_env_related(const char *name);

/**
 * Whether the entry `name` of `pm`'s temp folder is a runtime's cache
 * for the next run (Node's "node-compile-cache", the table's
 * `tmp_caches`; `pm` may be NULL) rather than a lock or leftover: kept
 * from run to run while the cache is warm (workspace.h).
 */
int pmbench_pm_tmp_cache(const struct pmbench_pm *pm, const char *name);

/**
 * What `pm` does differently on a file system of `type` ("overlay"),
 * or with `pm` NULL what any run does there ("tmpfs"); static storage,
 * or NULL when nothing.
 */
const char *pmbench_pm_fs_note(const struct pmbench_pm *pm, const char *type);

/**
 * The settings of `pm`'s table keys (conf) set in its configuration
 * files, read in `project` and, unless `user_npmrc` is NULL, the user's
 * ~/.npmrc as passed on (that path), appended to `out` as
 * "omit-lockfile-registry-resolved=true (~/.npmrc); ..." (nothing when
 * none); and the warning of each that changes the work, one a line,
 * appended to `warnings` (may be NULL).
 */
void pmbench_pm_conf_scan(struct pmbench_buf *out, struct pmbench_buf *warnings,
			  const struct pmbench_pm *pm, const char *project,
			  const char *user_npmrc);

/**
 * Every lockfile name any PM writes, once each, in the table's order
 * (NULL-terminated; static storage).
 */
const char *const *pmbench_pm_all_lockfiles(void);

/**
 * Variables that make a PM behave differently depending on the caller
 * (CI detection and the like: ci-info 4.4's list, which npm and yarn 4
 * bundle and pnpm 12 and bun 1.4 carry as ports); pmbench unsets them
 * all for every child.
 */
extern const char *const pmbench_ci_vars[];

/**
 * What `--ci` sets, as a GitHub Actions runner does ("CI=true",
 * "GITHUB_ACTIONS=true"; NULL-terminated).
 */
extern const char *const pmbench_ci_set[];

/**
 * Unset the settings of `pm`'s environment that its release `version`
 * (as it answered --version; NULL: unknown) is too old to know
 * (`env_unknown_before`), after pmbench_pm_env().
 */
void pmbench_pm_env_older(struct pmbench_strvec *env,
			  const struct pmbench_pm *pm, const char *version);

/**
 * Append the deltas of a `--ci` run of `pm` to `env`, after
 * pmbench_pm_env()'s: with `unpin`, its `ci_pins` unset (its own CI
 * default decides its frozen lockfile), then pmbench_ci_set.
 */
void pmbench_pm_ci_env(struct pmbench_strvec *env, const struct pmbench_pm *pm,
		       int unpin);

/**
 * Append the environment deltas for running `pm` with its caches in
 * `cache` (and HOME in `cache`/home) to `env`: the CI variables unset,
 * the common quietness settings, then the PM's own entries and its
 * `ci_pins` with the templates filled in, then a variant's.
 */
void pmbench_pm_env(struct pmbench_strvec *env, const struct pmbench_pm *pm,
		    const char *cache);

/** Append a NULL-terminated template list, with {cache}/{home} filled. */
void pmbench_pm_push_args(struct pmbench_strvec *out, const char *const *templ,
			  const char *cache);

/**
 * Append the arguments of `pm`'s install (`frozen`: its CI install),
 * templates filled, then a variant's arguments.
 */
void pmbench_pm_push_install(struct pmbench_strvec *out,
			     const struct pmbench_pm *pm, int frozen,
			     const char *cache);

/** "default", "none", "all". */
const char *pmbench_scripts_choice_name(enum pmbench_scripts_choice choice);

/**
 * `name` ("default", "none", "all") into `out`: 0, or PMBENCH_EINVALID
 * with an error naming the choices.
 */
int pmbench_scripts_choice_parse(enum pmbench_scripts_choice *out,
				 const char *name);

/**
 * The package.json field that tells `pm` `choice` (its way's
 * `trust_field`: bun's trustedDependencies under all), or NULL.
 */
const char *pmbench_pm_scripts_field(const struct pmbench_pm *pm,
				     enum pmbench_scripts_choice choice);

/**
 * Why `pm` cannot be told `choice` ("not possible: ..."), static
 * storage, or NULL when it can.
 */
const char *pmbench_pm_scripts_refusal(const struct pmbench_pm *pm,
				       enum pmbench_scripts_choice choice);

/**
 * Append to `out` what `pm` does with dependencies' install scripts
 * under `choice`, at release `version` (NULL: not known): its policy
 * as it comes (`scripts_note`, or `scripts_note_before` for an older
 * release), else
 * "--scripts none: told --ignore-scripts", "--scripts all: its default
 * (it runs every one)" or "--scripts all: not possible: ...".
 */
void pmbench_pm_scripts_told(struct pmbench_buf *out,
			     const struct pmbench_pm *pm, const char *version,
			     enum pmbench_scripts_choice choice);

/**
 * Append what tells `pm` the scripts choice `choice` (its table entry's
 * `scripts_way`): arguments to `args`, environment to `env` (either
 * may be NULL: not wanted). Nothing for PMBENCH_SCRIPTS_AS_IS or a
 * refused choice.
 */
void pmbench_pm_push_scripts(struct pmbench_strvec *args,
			     struct pmbench_strvec *env,
			     const struct pmbench_pm *pm,
			     enum pmbench_scripts_choice choice);

/**
 * Parse the first "MAJOR[.MINOR[.PATCH]]" in `version` text (e.g.
 * "deno 2.9.6 (stable)"); returns the major or -1.
 */
int pmbench_pm_version_major(const char *version);

#endif

#ifndef PMBENCH_RECIPE_H
#define PMBENCH_RECIPE_H

#include "pmbench/buf.h"
#include "pmbench/monorepo.h"
#include "pmbench/strvec.h"

struct pmbench_pm;
struct pmbench_pm_change;

/**
 * Migration recipes: the changes a team makes to its repo when it moves
 * to a PM (pnpm-workspace.yaml, "private": true, the workspace: protocol,
 * .yarnrc.yml, the packageManager field). Each PM's recipe is a list of
 * steps in its table entry (pm.h: `recipe`, struct pmbench_pm_change):
 * data and one of the callbacks below, which edit files of a project
 * through a `struct pmbench_recipe`. migrate.c runs them in its own copy
 * of the repo (never the user's) and reports each change as a unified
 * diff (diff.h) the team can apply. Edits keep the files' own layout
 * (jsonedit.h), so a diff shows only the change.
 *
 * A step whose callback finds nothing to do records nothing. Steps that
 * share a `choice` are alternatives: one is applied, the others are run
 * against the same files without writing them, so the report can show
 * their diffs as what the team may do instead.
 */

/** What one step changed (or, for an alternative, would change). */
struct pmbench_recipe_change {
	char *id;     /**< the step's id: "link-workspace-packages" */
	char *what;   /**< for people: the step's text and details */
	char *choice; /**< the choice it belongs to, or NULL */
	int applied;  /**< 0: an alternative, not applied */
	char *diff;   /**< unified diff of every file it changed */
	size_t lines; /**< lines added plus removed */
};

/** The state of one recipe being run on a project folder. */
struct pmbench_recipe {
	const char *project;	     /**< the folder edited (a copy) */
	const struct pmbench_pm *pm; /**< the target PM */
	const char *pm_version;	     /**< its version ("12.23.0"), or NULL */
	/**
	 * Before each path in a diff: the project's folder in the repo
	 * ("web/" when the project is a subfolder), or NULL. Set it before
	 * pmbench_recipe_run().
	 */
	const char *prefix;
	/** The project's workspace as the files are now (re-read per step). */
	struct pmbench_monorepo mono;
	/* The files the running step has changed: names, then new texts. */
	struct pmbench_strvec files, texts;
	struct pmbench_buf detail; /**< what the running step says it did */
	int dry;		   /**< the running step writes nothing */
	struct pmbench_recipe_change *changes;
	size_t changes_nr, changes_alloc;
};

#define PMBENCH_RECIPE_INIT                                                 \
	{                                                                   \
		.project = NULL, .mono = PMBENCH_MONOREPO_INIT,             \
		.files = PMBENCH_STRVEC_INIT, .texts = PMBENCH_STRVEC_INIT, \
		.detail = PMBENCH_BUF_INIT                                  \
	}

/**
 * Run every step of `pm`'s recipe (its base's for a variant) on the
 * project folder `project`, in the table's order: each applied step
 * writes its files before the next one reads them; of the steps that
 * share a choice, the one named in `choose` (NULL-terminated step ids,
 * may be NULL) or else the first is applied, after the others were run
 * without writing. Fills `r->changes`. Returns 0, or an error when a file
 * cannot be read or written (nothing of the user's: `project` is a copy).
 */
int pmbench_recipe_run(struct pmbench_recipe *r, const char *project,
		       const struct pmbench_pm *pm, const char *pm_version,
		       const char *const *choose);

void pmbench_recipe_release(struct pmbench_recipe *r);

/**
 * The recipe of `pm`, or NULL; the ids of its steps and their choices
 * are what `migrate --choose` takes.
 */
const struct pmbench_pm_change *
pmbench_recipe_steps(const struct pmbench_pm *pm);

/**
 * Whether `id` names a step of some PM's recipe that belongs to a
 * choice (what `migrate --choose` accepts).
 */
int pmbench_recipe_is_choice(const char *id);

/*
 * The step callbacks (pmbench_pm_change_cb), for the PM table. Each
 * returns 0 (having changed nothing when there was nothing to do) or an
 * error. `file` and `arg` are the step's.
 */

/** "private": true in the root package.json of a workspace root. */
int pmbench_recipe_private_root(struct pmbench_recipe *r,
				const struct pmbench_pm_change *step);

/** "packageManager": "<pm's package_manager>@<version>" at the root. */
int pmbench_recipe_package_manager(struct pmbench_recipe *r,
				   const struct pmbench_pm_change *step);

/**
 * `file` (pnpm-workspace.yaml) gets "packages:" from package.json's
 * "workspaces", when it has none.
 */
int pmbench_recipe_workspace_yaml(struct pmbench_recipe *r,
				  const struct pmbench_pm_change *step);

/**
 * package.json gets "workspaces" from pnpm-workspace.yaml's "packages",
 * when it has none.
 */
int pmbench_recipe_workspaces_field(struct pmbench_recipe *r,
				    const struct pmbench_pm_change *step);

/**
 * The top-level YAML setting `arg` ("key: value") in `file`, replacing
 * the key's line or appended. "key: $VAR" takes the value of VAR in the
 * PM's environment (a variant's yarn linker), skipping the step when the
 * PM sets none.
 */
int pmbench_recipe_yaml_setting(struct pmbench_recipe *r,
				const struct pmbench_pm_change *step);

/**
 * Every internal dependency asked for by a plain version or range the
 * workspace package satisfies becomes the workspace: protocol with the
 * same meaning when published: "1.0.0" and "*" workspace:*, "^1.0.0"
 * workspace:^, "~1.0.0" workspace:~.
 */
int pmbench_recipe_workspace_protocol(struct pmbench_recipe *r,
				      const struct pmbench_pm_change *step);

/**
 * Every internal dependency asked for with the workspace: protocol
 * becomes the plain version or range it stands for (workspace:* the
 * package's version, workspace:^ "^" and the version, workspace:^1.2.0
 * "^1.2.0").
 */
int pmbench_recipe_plain_versions(struct pmbench_recipe *r,
				  const struct pmbench_pm_change *step);

#endif

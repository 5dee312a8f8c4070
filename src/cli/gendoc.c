/*
 * pmbench-gendoc write|check ROOT: the man pages (docs/man/) and shell
 * completions (completions/) of the source tree ROOT, from the command
 * and option tables. `write` rewrites them; `check` (a CTest test) fails
 * naming each file that differs from what the tables say, or that no
 * command has.
 */
#include "pmbench/common.h"

#include <dirent.h>

#include "options.h"
#include "pmbench/fs.h"

struct gendoc {
	const char *root;
	int check;
	int stale;		   /* files that differ */
	struct pmbench_strvec man; /* the pages written, by file name */
};

/* Write `text` to ROOT/`rel`, or compare it with what is there. */
static int emit(struct gendoc *g, const char *rel,
		const struct pmbench_buf *text)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, old = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_buf_path(&path, g->root, rel);
	if (g->check) {
		if (pmbench_fs_read_text(&old, path.ptr, 1 << 22) < 0 ||
		    old.len != text->len ||
		    memcmp(old.ptr, text->ptr, text->len)) {
			fprintf(stderr,
				"pmbench-gendoc: '%s' is not what the option "
				"and command tables say; run "
				"'build/pmbench-gendoc write .' and commit it\n",
				rel);
			g->stale++;
		}
	} else {
		ret = pmbench_cli_mkdir_parent(path.ptr);
		if (!ret)
			ret = pmbench_fs_write_atomic(path.ptr, text->ptr,
						      text->len);
		if (ret < 0)
			fprintf(stderr, "pmbench-gendoc: error: %s\n",
				pmbench_error_last());
	}
	pmbench_buf_release(&path);
	pmbench_buf_release(&old);
	return ret;
}

static int man_page(struct gendoc *g, const struct pmbench_cli_command *c)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, rel = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&rel, "%s%s.1", c->fn ? "pmbench-" : "", c->name);
	pmbench_strvec_push(&g->man, rel.ptr);
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "docs/man/%s%s.1", c->fn ? "pmbench-" : "",
			 c->name);
	pmbench_cli_man(&text, c);
	ret = emit(g, rel.ptr, &text);
	pmbench_buf_release(&text);
	pmbench_buf_release(&rel);
	return ret;
}

/* A page in docs/man/ that no command writes any more. */
static void extra_pages(struct gendoc *g)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	struct dirent *e;
	DIR *d;

	pmbench_buf_path(&dir, g->root, "docs/man");
	d = opendir(dir.ptr);
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 2 && !strcmp(e->d_name + n - 2, ".1") &&
		    pmbench_strvec_find(&g->man, e->d_name) < 0) {
			fprintf(stderr,
				"pmbench-gendoc: 'docs/man/%s' belongs to no "
				"command; delete it\n",
				e->d_name);
			g->stale++;
		}
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&dir);
}

static int completions(struct gendoc *g)
{
	static const struct {
		enum pmbench_cli_shell shell;
		const char *file;
	} shells[] = {
		{ SHELL_BASH, "completions/pmbench.bash" },
		{ SHELL_ZSH, "completions/_pmbench" },
		{ SHELL_FISH, "completions/pmbench.fish" },
	};
	int ret = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(shells) && !ret; i++) {
		struct pmbench_buf text = PMBENCH_BUF_INIT;

		pmbench_cli_completion(&text, shells[i].shell);
		ret = emit(g, shells[i].file, &text);
		pmbench_buf_release(&text);
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct gendoc g = { NULL, 0, 0, PMBENCH_STRVEC_INIT };
	int ret;

	if (argc != 3 ||
	    (strcmp(argv[1], "write") && strcmp(argv[1], "check"))) {
		fprintf(stderr, "usage: pmbench-gendoc write|check ROOT\n");
		return PMBENCH_EXIT_USAGE;
	}
	g.root = argv[2];
	g.check = !strcmp(argv[1], "check");
	ret = man_page(&g, &pmbench_cli_program);
	for (size_t i = 0; i < pmbench_cli_commands_nr && !ret; i++)
		ret = man_page(&g, &pmbench_cli_commands[i]);
	if (!ret)
		ret = completions(&g);
	if (!ret && g.check)
		extra_pages(&g);
	pmbench_strvec_release(&g.man);
	if (ret < 0)
		return PMBENCH_EXIT_ERROR;
	return g.stale ? PMBENCH_EXIT_ERROR : PMBENCH_EXIT_OK;
}

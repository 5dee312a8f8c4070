/*
 * The cli's shared pieces: the configuration resolved (cache and
 * fixtures folders), the work folder taken, the one error printer and
 * the usage errors.
 */
#include "pmbench/common.h"

#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/ctx.h"
#include "pmbench/deleter.h"
#include "pmbench/doc.h"
#include "pmbench/format.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/pmrun.h"
#include "progress.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/prior.h"
#include "pmbench/text.h"
#include "pmbench/workdir.h"
#include "pmbench/workspace.h"
#include "where.h"

struct pmbench_config pmbench_config;
struct pmbench_ctx pmbench_cli_ctx = PMBENCH_CTX_INIT;

/* The pinned Node's installation, the context's `node`. */
static struct pmbench_node pinned_node = PMBENCH_NODE_INIT;

/* The default folders of this binary (where.h). */
static struct pmbench_where where = PMBENCH_WHERE_INIT;

/* The work folder this process holds, once a command has taken it. */
static struct pmbench_workdir workdir = PMBENCH_WORKDIR_INIT;

/* This machine's earlier results, the context's `prior`, once read. */
static struct pmbench_prior prior = PMBENCH_PRIOR_INIT;

static char *pick(const char *given, const char *var, const char *def)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *v = given;

	if (!v || !*v)
		v = getenv(var);
	if (!v || !*v)
		v = def;
	pmbench_fs_abspath(&b, v);
	return pmbench_buf_detach(&b);
}

/*
 * The toolchain's pinned Node, the default of every fixture (node.h
 * chooses per fixture), into pmbench_config.node_dir and the context.
 */
static void pinned_node_set(void)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_node_pinned_dir(&b, pmbench_config.toolchain_dir);
	free(pmbench_config.node_dir);
	pmbench_config.node_dir = b.len ? pmbench_buf_detach(&b) : NULL;
	pmbench_cli_ctx.node_dir = pmbench_config.node_dir;
	pmbench_node_release(&pinned_node);
	pmbench_cli_ctx.node = NULL;
	if (pmbench_config.node_dir) {
		pmbench_node_describe(&pinned_node, pmbench_config.node_dir,
				      "pinned default");
		pmbench_cli_ctx.node = &pinned_node;
	}
	pmbench_buf_release(&b);
}

/*
 * The pinned toolchain: $PMBENCH_TOOLCHAIN_DIR, else the work folder's
 * toolchain/ when it has one, else the default work folder's (the one
 * the setup script fills), so that any --cache-dir finds it.
 */
static char *toolchain_of(const char *cache_dir)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *dir;

	pmbench_buf_path(&b, cache_dir, "toolchain");
	if (!pmbench_fs_isdir(b.ptr)) {
		pmbench_buf_reset(&b);
		pmbench_buf_path(&b, where.cache_dir, "toolchain");
	}
	dir = pick(NULL, "PMBENCH_TOOLCHAIN_DIR", b.ptr);
	pmbench_buf_release(&b);
	return dir;
}

int pmbench_config_resolve(const char *cache_dir, const char *fixtures_dir)
{
	int ret;

	pmbench_config_release();
	pmbench_where_find(&where);
	pmbench_config.cache_dir =
		pick(cache_dir, "PMBENCH_CACHE_DIR", where.cache_dir);
	pmbench_config.fixtures_dir =
		pick(fixtures_dir, "PMBENCH_FIXTURES_DIR", where.fixtures_dir);
	pmbench_config.toolchain_dir = toolchain_of(pmbench_config.cache_dir);
	pmbench_cli_ctx.setup = where.setup;

	ret = pmbench_fs_mkdirp(pmbench_config.cache_dir, 0755);
	if (ret < 0) {
		pmbench_error_prefix("cannot use cache folder '%s' (set "
				     "--cache-dir or PMBENCH_CACHE_DIR)",
				     pmbench_config.cache_dir);
		return ret;
	}
	pmbench_cli_ctx.cache_dir = pmbench_config.cache_dir;
	pmbench_cli_ctx.toolchain_dir = pmbench_config.toolchain_dir;
	pmbench_cli_ctx.fixtures_dir = pmbench_config.fixtures_dir;
	pinned_node_set();
	pmbench_cli_ctx.log = pmbench_progress_log;
	pmbench_cli_ctx.progress = pmbench_progress_report;
	ret = pmbench_ctx_init(&pmbench_cli_ctx);
	if (ret < 0)
		return ret;
	ret = pmbench_fs_set_sandbox(pmbench_config.cache_dir);
	/* Node versions a repo asks for are installed in the toolchain. */
	return ret < 0 ? ret
		       : pmbench_fs_set_writable(pmbench_config.toolchain_dir);
}

/* Delete the trash here and now: no process could be started for it. */
static void empty_trash_here(const char *trash)
{
	/* Gigabytes of small files can take a minute: say so. */
	pmbench_ctx_status(&pmbench_cli_ctx,
			   "deleting the work copies set aside (%s)", trash);
	if (pmbench_fs_trash_empty(trash) < 0) {
		fprintf(stderr, "pmbench: warning: %s\n", pmbench_error_last());
		pmbench_error_clear();
	}
	pmbench_ctx_done(&pmbench_cli_ctx);
}

/*
 * Whether a command may put off the deletion an earlier one left: while
 * the file system holding the work folder keeps a tenth of its space (and
 * at least PUT_OFF_MIN_FREE) and a tenth of its inodes free. Below that,
 * the deletion goes on, and the first timed run waits for it, as the
 * space is needed. (Not a quarter: this machine's ext4 offers 72 of its
 * 252 GB, and a default bench's trees then took it below a quarter.)
 */
#define PUT_OFF_MIN_FREE (8ull << 30)

static int may_put_off(const char *dir)
{
	struct statvfs st;

	if (statvfs(dir, &st) < 0 || !st.f_blocks)
		return 0;
	if (st.f_bavail < st.f_blocks / 10 ||
	    (uint64_t)st.f_bavail * st.f_frsize < PUT_OFF_MIN_FREE)
		return 0;
	return !st.f_files || st.f_favail >= st.f_files / 10;
}

/*
 * At the start of a command: a deleter still waiting out its delay
 * (deleter.h) is stopped, and what it and a stopped command left waits in
 * the queue for the deleter this command starts when it is done. So a
 * command run right after another does not wait for that one's deletion,
 * nor for the minutes after it when the file system creates files slowly
 * (fswait.c). 1 when the deletion is put off, 0 when it is not.
 */
static int put_off(const char *dir, pid_t pid, int waiting)
{
	int pending = 0;

	if (pid < 0 || (pid > 0 && !waiting) || !may_put_off(dir))
		return 0;
	if (pid > 0 && pmbench_deleter_put_off(dir, pid) < 0) {
		fprintf(stderr, "pmbench: warning: %s\n", pmbench_error_last());
		pmbench_error_clear();
		return 0;
	}
	if (pmbench_deleter_hand_over(dir, &pending) < 0)
		pmbench_error_clear();
	if (pending > 0)
		pmbench_ctx_note(&pmbench_cli_ctx,
				 "what earlier commands set aside is deleted "
				 "after this one%s (the file system creates "
				 "files slowly for minutes after a deletion)",
				 pid > 0 ? ", not before it" : "");
	return pending > 0 || pid > 0;
}

/*
 * The trees the command discarded (pmbench_fs_discard()): handed over,
 * once it is done, to a process that deletes them after pmbench has
 * returned (deleter.h), the one process it leaves running, so that the
 * prompt comes back with the results; it waits PMBENCH_DELETER_DELAY_S
 * first, and the next command started meanwhile puts it off (put_off()).
 * At the start of a command that cannot put it off (a deletion under way,
 * or a file system short of space), the same hands over what a stopped
 * command left, and starts again a deletion that a killed deleter left,
 * at once; the first timed run waits for the deleter
 * (pmbench_workspace_await_reuse()).
 */
static void empty_trash(int at_end)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int waiting = 0, ret;
	pid_t pid = pmbench_deleter_state(pmbench_config.cache_dir, &waiting);

	if (!at_end && put_off(pmbench_config.cache_dir, pid, waiting))
		return;
	/*
	 * The last command's deletion still runs: at idle I/O priority it
	 * waits for every other I/O, and this command's first timed run
	 * will wait for it; from now on it goes at the normal priority.
	 */
	if (pid > 0 && !at_end)
		pmbench_deleter_hurry(pid);
	ret = pmbench_deleter_start(&pid, pmbench_config.cache_dir);
	pmbench_workdir_trash(&b, pmbench_config.cache_dir);
	if (ret < 0) {
		fprintf(stderr, "pmbench: warning: %s; deleting it now\n",
			pmbench_error_last());
		pmbench_error_clear();
		if (pmbench_fs_isdir(b.ptr))
			empty_trash_here(b.ptr);
	} else if (ret > 0 && !at_end) {
		/* No delay: this command waits for it. */
		pmbench_deleter_hurry(pid);
	} else if (ret > 0 && at_end) {
		struct pmbench_buf when = PMBENCH_BUF_INIT;

		pmbench_buf_add_clock_unit(&when, pmbench_deleter_delay());
		pmbench_ctx_note(&pmbench_cli_ctx,
				 "deleting the work copies set aside in the "
				 "background (pid %ld, idle I/O priority) in "
				 "%s, unless another pmbench command "
				 "takes this work folder first (then after "
				 "that one; 'pmbench wait' deletes them now)",
				 (long)pid, when.ptr);
		pmbench_buf_release(&when);
	}
	pmbench_buf_release(&b);
}

void pmbench_config_release(void)
{
	if (workdir.fd >= 0 && !pmbench_ctx_cancelled(&pmbench_cli_ctx))
		empty_trash(1);
	pmbench_workdir_release(&workdir);
	pmbench_cli_ctx.cache_dir = NULL;
	pmbench_cli_ctx.toolchain_dir = NULL;
	pmbench_cli_ctx.fixtures_dir = NULL;
	pmbench_cli_ctx.node_dir = NULL;
	pmbench_cli_ctx.node = NULL;
	pmbench_cli_ctx.setup = NULL;
	pmbench_node_release(&pinned_node);
	pmbench_where_release(&where);
	pmbench_prior_release(&prior);
	pmbench_cli_ctx.prior = NULL;
	free(pmbench_config.node_dir);
	free(pmbench_config.cache_dir);
	free(pmbench_config.fixtures_dir);
	free(pmbench_config.toolchain_dir);
	memset(&pmbench_config, 0, sizeof(pmbench_config));
}

void pmbench_cli_read_prior(int budgeted)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;

	if (!budgeted || pmbench_cli_ctx.prior)
		return;
	pmbench_buf_path(&dir, pmbench_config.cache_dir, "results");
	pmbench_prior_load(&prior, dir.ptr, (int64_t)time(NULL),
			   PMBENCH_PRIOR_FILES);
	pmbench_cli_ctx.prior = &prior;
	pmbench_buf_release(&dir);
}

int pmbench_cli_take_workdir(int argc, char **argv)
{
	struct pmbench_buf what = PMBENCH_BUF_INIT, def = PMBENCH_BUF_INIT;
	int trusted = 0, ret;

	/*
	 * The default work folder is pmbench's by definition: the source
	 * tree's cache/ (git ignores it, its README.md says everything in
	 * it may be deleted) or the user's cache folder's pmbench/, where
	 * the setup script puts the toolchain before pmbench ever runs. It
	 * gets the marker without being empty.
	 */
	if (where.cache_dir) {
		pmbench_fs_abspath(&def, where.cache_dir);
		trusted = !strcmp(def.ptr, pmbench_config.cache_dir);
	}
	pmbench_buf_adds(&what, "pmbench");
	for (int i = 0; i < argc; i++)
		pmbench_buf_addf(&what, " %s", argv[i]);
	ret = pmbench_workdir_check(pmbench_config.cache_dir, trusted);
	if (!ret)
		ret = pmbench_workdir_lock(&workdir, pmbench_config.cache_dir,
					   what.ptr);
	if (!ret)
		empty_trash(0);
	if (ret < 0)
		pmbench_cli_error(NULL);
	pmbench_buf_release(&what);
	pmbench_buf_release(&def);
	return ret < 0 ? -1 : 0;
}

void pmbench_cli_error(const char *what)
{
	pmbench_cli_line(stderr, "pmbench: error: %s%s%s", what ? what : "",
			 what ? ": " : "", pmbench_error_last());
}

int pmbench_cli_fail(int code)
{
	pmbench_cli_flush();
	if (code == PMBENCH_EINTERRUPTED ||
	    pmbench_ctx_cancelled(&pmbench_cli_ctx)) {
		/* An error after a stop signal is its doing (EINTR). */
		if (code != PMBENCH_EINTERRUPTED)
			pmbench_cli_error(NULL);
		fprintf(stderr, "pmbench: interrupted by %s\n",
			pmbench_proc_signal_name(
				pmbench_ctx_cancelled(&pmbench_cli_ctx)));
		return PMBENCH_EXIT_INTERRUPTED;
	}
	pmbench_cli_error(NULL);
	return PMBENCH_EXIT_ERROR;
}

int pmbench_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	va_list ap;

	/* It quotes the command line, which may hold a token. */
	va_start(ap, fmt);
	pmbench_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	pmbench_cli_line(stderr, "pmbench: %s: %s", cmd, msg.ptr);
	pmbench_buf_release(&msg);
	return -1;
}

void pmbench_cli_note_twice(const char *item, const char *opt, const char *verb)
{
	fprintf(stderr, "pmbench: note: '%s' given twice in %s; %s it once\n",
		item, opt, verb);
}

void pmbench_cli_default_out(struct pmbench_buf *out, const char *prefix,
			     const char *name)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	pmbench_buf_addf(out, "%s/results/%s%s-%s.json",
			 pmbench_config.cache_dir, prefix, name, stamp);
}

int pmbench_cli_mkdir_parent(const char *path)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	const char *slash = strrchr(path, '/');
	int ret = 0;

	if (slash && slash != path) {
		pmbench_buf_add(&dir, path, (size_t)(slash - path));
		ret = pmbench_fs_mkdirp(dir.ptr, 0755);
	}
	pmbench_buf_release(&dir);
	return ret;
}

int pmbench_cli_prepare_out(const char **path, struct pmbench_buf *buf,
			    const char *prefix, const char *name)
{
	int ret;

	if (!*path) {
		pmbench_cli_default_out(buf, prefix, name);
		*path = buf->ptr;
	}
	ret = pmbench_cli_mkdir_parent(*path);
	/* A folder or a FIFO is refused now, not after the whole run. */
	if (!ret)
		ret = pmbench_fs_check_output(*path);
	return ret;
}

int pmbench_cli_save(const struct pmbench_result *r, const char *out)
{
	char *before;
	int ret;

	/*
	 * No run at all (stopped in the reuse wait, every priming failed):
	 * a file the user named keeps what it held.
	 */
	if (!pmbench_result_has_samples(r))
		return 0;
	pmbench_cli_flush();
	/* The run's own error, if any, is still the one to report after. */
	before = pmbench_xstrdup(pmbench_error_last());
	ret = pmbench_result_write(r, out);
	if (ret < 0)
		fprintf(stderr,
			"pmbench: error: the result was not saved: %s; give "
			"--out a file that can be written\n",
			pmbench_error_last());
	else
		fprintf(stderr, "pmbench: results written to '%s'\n", out);
	pmbench_error_set("%s", before);
	free(before);
	return ret < 0 ? -1 : 0;
}

int pmbench_cli_finish(const struct pmbench_result *r, int ret, const char *out)
{
	int saved = pmbench_cli_save(r, out);

	if (ret < 0)
		return pmbench_cli_fail(ret);
	if (saved < 0)
		return PMBENCH_EXIT_ERROR;
	if (!pmbench_result_has_samples(r)) {
		fprintf(stderr, "pmbench: error: nothing was measured, so no "
				"result was written\n");
		return PMBENCH_EXIT_ERROR;
	}
	for (size_t i = 0; i < r->cells_nr; i++)
		if (r->cells[i].prime_failure ||
		    pmbench_cell_failures(&r->cells[i]))
			return PMBENCH_EXIT_FAILED_RUNS;
	return PMBENCH_EXIT_OK;
}

int pmbench_cli_show_finish(const struct pmbench_cli_output *o,
			    const struct pmbench_result *r, int ret,
			    const char *out,
			    void (*report)(struct pmbench_doc *,
					   const struct pmbench_result *))
{
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int shown = 0, code;

	if (r->cells_nr) {
		report(&doc, r);
		shown = pmbench_cli_show(o, &doc);
	}
	code = pmbench_cli_finish(r, ret, out);
	if (shown < 0 && code != PMBENCH_EXIT_INTERRUPTED)
		code = PMBENCH_EXIT_ERROR;
	pmbench_doc_release(&doc);
	return code;
}

int pmbench_cli_check_output(const struct pmbench_cli_output *o)
{
	int ret;

	if (!o->path)
		return 0;
	ret = pmbench_cli_mkdir_parent(o->path);
	if (!ret)
		ret = pmbench_fs_check_output(o->path);
	if (ret < 0)
		pmbench_cli_error(NULL);
	return ret < 0 ? -1 : 0;
}

unsigned pmbench_cli_term_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	uint64_t n = 0;

	if (env && !pmbench_parse_u64(&n, env) && n)
		return n < 80 ? 80 : n > 10000 ? 10000 : (unsigned)n;
	if (isatty(1) && !ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col < 80 ? 80 : ws.ws_col;
	return 100;
}

void pmbench_cli_flush(void)
{
	fflush(stdout);
}

void pmbench_cli_line(FILE *out, const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, line = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pmbench_text_clean(&line, b.ptr, 0);
	pmbench_buf_addch(&line, '\n');
	if (out == stderr)
		fflush(stdout);
	fputs(line.ptr, out);
	pmbench_buf_release(&b);
	pmbench_buf_release(&line);
}

/* `doc` in format `f`, to standard output or the file `path`. */
static int show_as(const struct pmbench_format *f, const char *path,
		   const struct pmbench_doc *doc)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret = pmbench_format_write(&text, f, doc);

	if (!ret && path)
		ret = pmbench_fs_write_output(path, text.ptr, text.len);
	else if (!ret)
		fwrite(text.ptr, 1, text.len, stdout);
	/* What comes on stderr next must not cut a line of it. */
	fflush(stdout);
	if (ret < 0)
		pmbench_cli_error(NULL);
	pmbench_buf_release(&text);
	return ret < 0 ? -1 : 0;
}

int pmbench_cli_show(const struct pmbench_cli_output *o,
		     struct pmbench_doc *doc)
{
	const struct pmbench_format *table = pmbench_format_get("table");
	const struct pmbench_format *f = o->format;
	int ret = 0;

	/* The terminal fits its width; a file keeps every column. */
	pmbench_doc_term(doc, pmbench_cli_term_width(), o->columns, o->wide);
	if (!o->path)
		return show_as(f ? f : table, NULL, doc);
	if (!f)
		f = pmbench_format_for_path(o->path);
	if (o->runs)
		ret = show_as(table, NULL, doc);
	pmbench_doc_term(doc, 0, NULL, 1);
	if (show_as(f ? f : table, o->path, doc) < 0)
		return -1;
	if (o->runs)
		fprintf(stderr, "pmbench: report written to '%s'\n", o->path);
	return ret;
}

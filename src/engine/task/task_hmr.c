/*
 * The hmr task: start the dev server as the dev task does (task_dev.c),
 * and once it is ready, edit a source file of the run copy `edits`
 * times. Each edit puts a fresh marker into the file and times, from the
 * write, until the URL that serves the file (polled on 127.0.0.1 with
 * the dev task's capped back-off) answers with a body holding the
 * marker; then the file gets its original text back, so every edit
 * starts from the same text, and the next edit waits a settle time.
 * Every edit time is a metric; the sample's wall time is the run's
 * median. An edit that never shows is a failed run naming the edit and
 * what was served instead.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/bench.h"
#include "pmbench/ctx.h"
#include "pmbench/fixture.h"
#include "pmbench/framework.h"
#include "pmbench/fs.h"
#include "pmbench/pmrun.h"
#include "task_ops.h"

/* Between the server's readiness (or the last edit) and an edit. */
#define SETTLE_NS (500ull * 1000000ull)
/* An edit not served after this long has failed. */
#define EDIT_MAX_NS	(30ull * 1000000000ull)
#define POLL_MAX_GAP_NS 10000000ull
#define POLL_ATTEMPT_NS 2000000000ull
#define SOURCE_MAX	(16u << 20)
/* How much of what was served a failure quotes. */
#define SHOWN_MAX 100

/* One run's edits. */
struct hmr {
	struct pmbench_dev_run *d;
	struct pmbench_buf file; /* relative to the project */
	struct pmbench_buf abs;	 /* in the run copy */
	struct pmbench_buf url;
	struct pmbench_buf orig; /* the file's text before any edit */
	struct pmbench_ready_poll *poll;
	int edited; /* the file holds an edit now */
	unsigned stale;
	double *times;
	unsigned done;
};

/* --edits (bench.h): edits per run, at least one. */
static unsigned edits(const struct pmbench_task_job *j)
{
	return j->opts->knobs.edits ? j->opts->knobs.edits : 1;
}

void pmbench_task_hmr_describe(struct pmbench_cell *cell,
			       const struct pmbench_task_job *j)
{
	pmbench_task_dev_describe(cell, j);
}

/*
 * The file to edit and the URL path that serves it: the manifest's
 * "hmr", else the framework table's for the detected dev server. A
 * file without a path is served at its own path (a module URL).
 */
static int hmr_target(struct hmr *h, struct pmbench_buf *path)
{
	const struct pmbench_fixture *f = h->d->j->f;
	const char *file = pmbench_fixture_get(f, "hmr", "file");
	const char *mpath = pmbench_fixture_get(f, "hmr", "path");
	const struct pmbench_framework *fw = h->d->cfg.fw;
	const char *project = h->d->j->ps->ws.run_project;
	struct pmbench_buf ffile = PMBENCH_BUF_INIT, fpath = PMBENCH_BUF_INIT;
	int ret = 0;

	if (!file || !mpath)
		pmbench_framework_hmr_target(&ffile, &fpath, fw, project);
	pmbench_buf_adds(&h->file, file ? file : ffile.ptr);
	if (!h->file.len) {
		ret = pmbench_error_setc(
			PMBENCH_ENOTFOUND,
			"no file to edit: %s%s%s; set \"hmr\": { \"file\": "
			"..., \"path\": ... } in the manifest",
			fw ? "none of the files "
			   : "no known dev server in the "
			     "dev script",
			fw ? fw->title : "", fw ? " edits exists" : "");
		goto done;
	}
	if (mpath)
		pmbench_buf_adds(path, mpath);
	else if (!file && fpath.len)
		pmbench_buf_adds(path, fpath.ptr);
	else if (fw && fw->hmr_path[0])
		pmbench_buf_adds(path, fw->hmr_path);
	else
		pmbench_buf_addf(path, "/%s", h->file.ptr);
done:
	pmbench_buf_release(&ffile);
	pmbench_buf_release(&fpath);
	return ret;
}

/* Read the file to edit; it must be a regular file (no symlink out). */
static int hmr_read(struct hmr *h)
{
	struct stat st;

	pmbench_buf_path(&h->abs, h->d->j->ps->ws.run_project, h->file.ptr);
	if (lstat(h->abs.ptr, &st) < 0 || !S_ISREG(st.st_mode))
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "'%s' (the file hmr edits) is not a "
					  "file in the project; set "
					  "\"hmr.file\" in the manifest",
					  h->file.ptr);
	return pmbench_fs_read_text(&h->orig, h->abs.ptr, SOURCE_MAX);
}

/*
 * Write the whole text at once (a temporary file renamed over it, as
 * many editors save): the server never reads half a file, and a file
 * that shares its inode with another copy (a hard link) is never
 * changed in place.
 */
static int write_file(const char *path, const char *text, size_t len)
{
	return pmbench_fs_write_atomic(path, text, len);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * The file's text with `marker` in a place where the served module or
 * page keeps it: a statement for scripts (transforms drop comments, a
 * statement stays, and adds no export that would stop React's fast
 * refresh), an element for markup, a statement in a Vue file's script.
 */
static void edited_text(struct pmbench_buf *out, const char *orig,
			const char *file, const char *marker)
{
	static const char *const markup[] = { ".svelte", ".astro", ".html",
					      ".htm",	 ".md",	   ".mdx" };
	const char *nl = orig[0] && !ends_with(orig, "\n") ? "\n" : "";
	const char *script, *gt;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(markup); i++) {
		if (ends_with(file, markup[i])) {
			pmbench_buf_addf(out, "%s%s<p hidden>%s</p>\n", orig,
					 nl, marker);
			return;
		}
	}
	if (ends_with(file, ".css")) {
		pmbench_buf_addf(out, "%s%s/* %s */\n", orig, nl, marker);
		return;
	}
	script = ends_with(file, ".vue") ? strstr(orig, "<script") : NULL;
	gt = script ? strchr(script, '>') : NULL;
	if (gt) {
		pmbench_buf_add(out, orig, (size_t)(gt + 1 - orig));
		pmbench_buf_addf(out, "\nglobalThis.__pmbench_hmr = \"%s\";",
				 marker);
		pmbench_buf_adds(out, gt + 1);
		return;
	}
	if (ends_with(file, ".vue")) {
		pmbench_buf_addf(out, "%s%s<!-- %s -->\n", orig, nl, marker);
		return;
	}
	pmbench_buf_addf(out, "%s%sglobalThis.__pmbench_hmr = \"%s\";\n", orig,
			 nl, marker);
}

/*
 * Keep reading the server's output for `ns`. Returns 0, 1 when the
 * server exited, or PMBENCH_EINTERRUPTED.
 */
static int hmr_wait(struct hmr *h, uint64_t ns)
{
	uint64_t end = pmbench_now_ns() + ns;
	int n = 0;

	while (!n && pmbench_now_ns() < end)
		n = pmbench_child_pump(&h->d->c, 10000000);
	if (pmbench_ctx_cancelled(h->d->j->ps->ctx))
		return PMBENCH_EINTERRUPTED;
	return n == 1 ? 1 : n < 0 ? n : 0;
}

/* How long an edit may take: 30 s, less with a shorter --timeout. */
static uint64_t edit_max_ns(const struct hmr *h)
{
	uint64_t t = h->d->j->timeout_ns;

	return t && t < EDIT_MAX_NS ? t : EDIT_MAX_NS;
}

/* What the URL served instead, quoted on one line. */
static void served(struct pmbench_buf *why, const struct hmr *h,
		   const struct pmbench_ready_state *st)
{
	const char *body = pmbench_ready_poll_last_body(h->poll);
	size_t n = strlen(body);

	if (!st->stale) {
		pmbench_buf_addf(why,
				 "no answer (%u refused, %u timed out; %s)",
				 st->refused, st->timeouts,
				 st->last_error[0] ? st->last_error : "none");
		return;
	}
	pmbench_buf_addf(why, "%u answers without the marker, the last: \"",
			 st->stale);
	for (size_t i = 0; i < n && i < SHOWN_MAX; i++)
		pmbench_buf_addf(why, "%c",
				 body[i] == '\n' || body[i] == '\r' ||
						 body[i] == '\t'
					 ? ' '
					 : body[i]);
	pmbench_buf_adds(why, n > SHOWN_MAX ? "...\"" : "\"");
}

/* Why edit `k` failed, as the sample's failure. */
static void edit_failed(struct hmr *h, unsigned k, const char *what,
			const struct pmbench_ready_state *st)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT, tail = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&why, "hmr edit %u of %u (%s) %s", k, edits(h->d->j),
			 h->file.ptr, what);
	if (st) {
		pmbench_buf_addf(&why,
				 " at %s within %.1f s; served: ", h->url.ptr,
				 (double)edit_max_ns(h) / 1e9);
		served(&why, h, st);
	}
	pmbench_child_tail_lines(&h->d->c, 20, &tail);
	pmbench_task_fail(h->d->s, why.ptr, tail.ptr);
	pmbench_buf_release(&why);
	pmbench_buf_release(&tail);
}

static void interrupted(struct hmr *h, unsigned k)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&why, "interrupted by %s during hmr edit %u of %u",
			 pmbench_proc_signal_name(
				 pmbench_ctx_cancelled(h->d->j->ps->ctx)),
			 k, edits(h->d->j));
	pmbench_sample_interrupt(h->d->s, why.ptr);
	pmbench_buf_release(&why);
}

/* Put the original text back; a failure fails the run. */
static int hmr_restore(struct hmr *h)
{
	struct pmbench_buf now = PMBENCH_BUF_INIT;
	int ret = 0;

	if (!h->edited)
		return 0;
	ret = write_file(h->abs.ptr, h->orig.ptr, h->orig.len);
	if (!ret)
		ret = pmbench_fs_read_text(&now, h->abs.ptr, SOURCE_MAX);
	if (!ret && strcmp(now.ptr, h->orig.ptr))
		ret = pmbench_error_set("'%s' did not get its text back",
					h->abs.ptr);
	h->edited = ret < 0;
	pmbench_buf_release(&now);
	return ret;
}

/*
 * Edit `k` (from 1): settle, write the marker, poll until it is served.
 * Returns 0 (timed into h->times), 1 (the run failed: the sample says
 * why) or PMBENCH_EINTERRUPTED.
 */
static int hmr_edit(struct hmr *h, unsigned k, uint64_t nonce)
{
	struct pmbench_ready_state st;
	struct pmbench_buf marker = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	uint64_t t0;
	int n, ret = 1;

	n = hmr_wait(h, SETTLE_NS);
	if (n)
		goto ended;
	pmbench_buf_addf(&marker, "pmbench-hmr-%llx-%u",
			 (unsigned long long)nonce, k);
	edited_text(&text, h->orig.ptr, h->file.ptr, marker.ptr);
	memset(&st, 0, sizeof(st));
	pmbench_ready_poll_rearm(h->poll, marker.ptr);
	t0 = pmbench_now_ns();
	h->edited = 1;
	if (write_file(h->abs.ptr, text.ptr, text.len) < 0) {
		edit_failed(h, k, pmbench_error_last(), NULL);
		goto done;
	}
	for (n = 0; !n && !st.body_ns;) {
		n = pmbench_child_pump(&h->d->c, 0);
		if (n || pmbench_ctx_cancelled(h->d->j->ps->ctx))
			goto ended;
		if (pmbench_ready_poll_step(h->poll, 1000000, &st) < 0) {
			edit_failed(h, k, pmbench_error_last(), NULL);
			goto done;
		}
		if (!st.body_ns && pmbench_now_ns() - t0 >= edit_max_ns(h)) {
			edit_failed(h, k, "did not show", &st);
			goto done;
		}
	}
	h->times[h->done++] = (double)(st.body_ns - t0) / 1e9;
	h->stale += st.stale;
	ret = 0;
	goto done;
ended:
	if (pmbench_ctx_cancelled(h->d->j->ps->ctx)) {
		interrupted(h, k);
		ret = PMBENCH_EINTERRUPTED;
	} else {
		edit_failed(h, k, "failed: the dev server exited", NULL);
	}
done:
	if (hmr_restore(h) < 0 && ret == 0) {
		edit_failed(h, k, pmbench_error_last(), NULL);
		ret = 1;
	}
	pmbench_buf_release(&marker);
	pmbench_buf_release(&text);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Every edit's time, the median as the sample's wall time. */
static void hmr_record(struct hmr *h)
{
	struct pmbench_sample *s = h->d->s;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	double *sorted, median;

	for (unsigned i = 0; i < h->done; i++) {
		pmbench_buf_reset(&name);
		pmbench_buf_addf(&name, "hmr_edit_%u_s", i + 1);
		pmbench_sample_metric_set(s, name.ptr, h->times[i]);
	}
	pmbench_sample_metric_set(s, "hmr_edits_count", h->done);
	pmbench_sample_metric_set(s, "hmr_stale_count", h->stale);
	pmbench_buf_release(&name);
	if (!h->done)
		return;
	sorted = pmbench_xcalloc(h->done, sizeof(*sorted));
	memcpy(sorted, h->times, h->done * sizeof(*sorted));
	qsort(sorted, h->done, sizeof(*sorted), cmp_double);
	median = h->done % 2
			 ? sorted[h->done / 2]
			 : (sorted[h->done / 2 - 1] + sorted[h->done / 2]) / 2;
	pmbench_sample_metric_set(s, "hmr_min_s", sorted[0]);
	pmbench_sample_metric_set(s, "hmr_max_s", sorted[h->done - 1]);
	if (s->ok && h->done == edits(h->d->j))
		s->wall_ns = (uint64_t)(median * 1e9 + 0.5);
	free(sorted);
}

/* The edits of a ready server. Returns 0 or PMBENCH_EINTERRUPTED. */
static int hmr_edits(struct hmr *h)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	uint64_t nonce = pmbench_now_ns() ^ ((uint64_t)getpid() << 32);
	int ret = 0;

	if (hmr_target(h, &path) < 0 || hmr_read(h) < 0) {
		pmbench_task_fail(h->d->s, pmbench_error_last(), NULL);
		goto done;
	}
	pmbench_buf_addf(&h->url, "http://127.0.0.1:%u%s", h->d->port,
			 path.ptr);
	if (pmbench_ready_poll_new(&h->poll, h->url.ptr, POLL_MAX_GAP_NS,
				   POLL_ATTEMPT_NS) < 0) {
		pmbench_task_fail(h->d->s, pmbench_error_last(), NULL);
		goto done;
	}
	h->times = pmbench_xcalloc(edits(h->d->j), sizeof(*h->times));
	pmbench_ctx_status(h->d->j->ps->ctx, "%s: %u hmr edits of %s",
			   h->d->j->ps->pm->name, edits(h->d->j), h->file.ptr);
	for (unsigned k = 1; k <= edits(h->d->j); k++) {
		ret = hmr_edit(h, k, nonce);
		if (ret) {
			/* A failed edit fails the run: no further edits. */
			ret = ret == 1 ? 0 : ret;
			break;
		}
	}
	hmr_record(h);
done:
	pmbench_buf_release(&path);
	return ret;
}

int pmbench_task_hmr_run(const struct pmbench_task_job *j,
			 struct pmbench_sample *s,
			 struct pmbench_strvec *argv_out)
{
	struct pmbench_dev_run d;
	struct hmr h;
	uint64_t timeout_ns = pmbench_dev_ready_timeout(j);
	int ret = 0, waited = 0;

	memset(&h, 0, sizeof(h));
	h.d = &d;
	pmbench_buf_init(&h.file);
	pmbench_buf_init(&h.abs);
	pmbench_buf_init(&h.url);
	pmbench_buf_init(&h.orig);
	pmbench_dev_init(&d, j, s);
	if (pmbench_dev_start(&d, argv_out) < 0)
		goto done;
	waited = pmbench_dev_wait_ready(&d, timeout_ns);
	if (waited == 0) {
		pmbench_dev_record_ready(&d, timeout_ns);
		if (d.ready)
			waited = hmr_edits(&h);
	}
	ret = pmbench_dev_stop_and_check(&d);
	if (waited == PMBENCH_EINTERRUPTED)
		ret = waited;
done:
	/* Whatever happened, the copy gets its text back. */
	hmr_restore(&h);
	pmbench_ready_poll_free(h.poll);
	free(h.times);
	pmbench_buf_release(&h.file);
	pmbench_buf_release(&h.abs);
	pmbench_buf_release(&h.url);
	pmbench_buf_release(&h.orig);
	pmbench_dev_release(&d);
	return ret;
}

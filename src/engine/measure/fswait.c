/*
 * The wait before the first timed run (workspace.h): no run is timed
 * while pmbench's deleter still deletes what the last command set aside
 * (deleter.h), nor while the file system is still slowed by a deletion,
 * which pmbench's control tells against its reference on this machine
 * and file system (control.h).
 *
 * Why measured and not a fixed 6 minutes: ext4 without a journal scans
 * past the inodes freed in the last 60 s, or 360 s while their inode
 * table block is dirty, for every file it creates near them; 360 s is
 * the bound, not what every deletion costs, and a deletion pmbench does
 * not know of (the user's `rm -rf` just before) slows the runs as much.
 */
#include "pmbench/common.h"

#include <poll.h>
#include <sys/types.h>
#include <time.h>

#include "pmbench/buf.h"
#include "pmbench/control.h"
#include "pmbench/ctx.h"
#include "pmbench/deleter.h"
#include "pmbench/fs.h"
#include "pmbench/workdir.h"
#include "pmbench/workspace.h"

/* A control at most this share above the reference is a quiet one. */
#define MARGIN 0.30
/* So many quiet controls in a row end the wait. */
#define IN_A_ROW 3
/* Between two slow controls: the bound / GAPS, within these (s). */
#define GAPS	36
#define GAP_MIN 0.05
#define GAP_MAX 10.0

struct fswait {
	const struct pmbench_ctx *ctx;
	struct pmbench_buf *note;
	unsigned delay;		  /* the reuse delay here, s; the bound */
	struct pmbench_buf why;	  /* "ext4 without a journal (vda)" */
	struct pmbench_buf known; /* pmbench's last large deletion, or "" */
	double ago;		  /* since it, s; < 0: none recorded */
	struct timespec stamp;	  /* its time */
	struct pmbench_control_ref ref;
	unsigned n, in_row; /* controls run; quiet ones in a row */
	int slowed;	    /* a control above the margin was seen */
	double first, last, row[IN_A_ROW];
	uint64_t t0;
};

/*
 * What the wait before timing found, for the check of the first round's
 * own control (pmbench_workspace_recheck_reuse()): the reference it
 * measured against, when it started, and whether it may still wait.
 */
static struct waited {
	int armed;
	double ref;
	uint64_t t0;
	unsigned delay;
} waited;

/* The note: a sentence more. */
static void note(struct fswait *w, const char *fmt, ...) PMBENCH_PRINTF(2, 3);
static void note(struct fswait *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->note)
		return;
	if (w->note->len)
		pmbench_buf_adds(w->note, "; ");
	va_start(ap, fmt);
	pmbench_buf_vaddf(w->note, fmt, ap);
	va_end(ap);
}

/* Sleep `s` seconds, or less when `ctx` is cancelled (its wake fd). */
static void pause_for(const struct pmbench_ctx *ctx, double s)
{
	struct pollfd pfd = { pmbench_ctx_wake_fd(ctx), POLLIN, 0 };

	if (!pmbench_ctx_cancelled(ctx))
		poll(&pfd, pfd.fd >= 0, (int)(s * 1000) + 1);
}

static double since_ns(uint64_t t0)
{
	return (double)(pmbench_now_ns() - t0) / 1e9;
}

/*
 * A deleter of pmbench's still deleting: wait until it is done (at
 * normal I/O priority from now, as someone waits for it), or warn when
 * told not to wait.
 */
static int await_deleter(struct fswait *w)
{
	const struct pmbench_ctx *ctx = w->ctx;
	pid_t pid = pmbench_deleter_running(ctx->cache_dir);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	uint64_t t0 = pmbench_now_ns();

	if (!pid)
		return 0;
	if (ctx->no_fs_wait) {
		pmbench_ctx_warn(ctx,
				 "timing at once (--no-fs-wait), though "
				 "pmbench's deletion of what the last command "
				 "set aside still runs (pid %ld): the first "
				 "runs may be slower than the rest",
				 (long)pid);
		note(w,
		     "not waited (--no-fs-wait) for pmbench's deletion "
		     "(pid %ld)",
		     (long)pid);
		return 0;
	}
	if (pid > 0)
		pmbench_deleter_hurry(pid);
	pmbench_ctx_event(ctx,
			  "waiting for pmbench's deletion of what the last "
			  "command set aside (pid %ld) to end before timing "
			  "(--no-fs-wait skips this)",
			  (long)pid);
	while (pmbench_deleter_running(ctx->cache_dir) &&
	       !pmbench_ctx_cancelled(ctx)) {
		pmbench_buf_reset(&b);
		pmbench_buf_add_clock(&b, since_ns(t0));
		pmbench_ctx_status(ctx, "waiting for pmbench's deletion: %s",
				   b.ptr);
		pause_for(ctx, 0.25);
	}
	pmbench_ctx_done(ctx);
	pmbench_buf_release(&b);
	if (pmbench_ctx_cancelled(ctx))
		return PMBENCH_EINTERRUPTED;
	note(w,
	     "waited %.0f s for pmbench's deletion of what the last "
	     "command set aside (pid %ld)",
	     since_ns(t0), (long)pid);
	return 0;
}

/* The reuse delay here, and pmbench's last large deletion within it. */
static void find_delay(struct fswait *w)
{
	struct pmbench_buf trash = PMBENCH_BUF_INIT;
	struct timespec now;
	uint64_t files = 0;

	w->delay = pmbench_fs_inode_reuse_delay(w->ctx->cache_dir, &w->why);
	w->ago = -1;
	pmbench_workdir_trash(&trash, w->ctx->cache_dir);
	if (w->delay &&
	    pmbench_fs_trash_emptied(trash.ptr, &w->stamp, &files)) {
		clock_gettime(CLOCK_REALTIME, &now);
		w->ago = (double)(now.tv_sec - w->stamp.tv_sec) +
			 (double)(now.tv_nsec - w->stamp.tv_nsec) / 1e9;
		if (w->ago < 0)
			w->ago = 0;
		/* A second more than the kernel's: dtime has whole seconds. */
		if (w->ago < w->delay + 1)
			pmbench_buf_addf(&w->known,
					 ", and pmbench deleted %llu files "
					 "%.0f s before",
					 (unsigned long long)files, w->ago);
	}
	pmbench_buf_release(&trash);
}

/* Told not to wait: say what is not waited for, if anything. */
static void no_wait(struct fswait *w)
{
	if (!w->known.len)
		return;
	pmbench_ctx_warn(w->ctx,
			 "timing at once (--no-fs-wait), though %s slows "
			 "file creation for up to %u s after a deletion%s: "
			 "the first runs may be slower than the rest",
			 w->why.ptr, w->delay, w->known.ptr);
	note(w,
	     "not waited (--no-fs-wait): %s slows file creation for up to "
	     "%u s after a deletion%s",
	     w->why.ptr, w->delay, w->known.ptr);
}

/* Wait `left` seconds by the clock, with a countdown. */
static int wait_clock(struct fswait *w, double left)
{
	const struct pmbench_ctx *ctx = w->ctx;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	uint64_t deadline, now;

	pmbench_buf_adds(&b, "waiting ");
	pmbench_buf_add_clock(&b, left);
	pmbench_ctx_event(ctx,
			  "%s (m:ss) before timing: %s slows file creation "
			  "for up to %u s after a deletion%s, and pmbench's "
			  "control has no reference on this file system yet "
			  "(--no-fs-wait skips this)",
			  b.ptr, w->why.ptr, w->delay, w->known.ptr);
	/* On the monotonic clock: a wall clock set back cannot prolong it. */
	deadline = pmbench_now_ns() + (uint64_t)(left * 1e9);
	while ((now = pmbench_now_ns()) < deadline &&
	       !pmbench_ctx_cancelled(ctx)) {
		left = (double)(deadline - now) / 1e9;
		pmbench_buf_reset(&b);
		pmbench_buf_add_clock(&b, left);
		pmbench_ctx_status(ctx, "waiting for the file system: %s left",
				   b.ptr);
		pause_for(ctx, left < 1 ? left : 1);
	}
	pmbench_ctx_done(ctx);
	pmbench_buf_release(&b);
	if (pmbench_ctx_cancelled(ctx))
		return PMBENCH_EINTERRUPTED;
	note(w,
	     "waited %.0f s before the first run: %s slows file creation "
	     "for up to %u s after a deletion%s",
	     since_ns(w->t0), w->why.ptr, w->delay, w->known.ptr);
	return 0;
}

/*
 * One control; its file work into `out_s`. As in a round, after the
 * file system is synced (bench.c's settle()): the wait's controls ran
 * without it and came out quiet where the round's next control, synced,
 * took 0.37 s against a reference of 0.06 s.
 */
static int control(struct fswait *w, double *out_s)
{
	int ret;

	if (pmbench_fs_settle(w->ctx->cache_dir) < 0)
		pmbench_error_clear();
	ret = pmbench_control_files(out_s, w->ctx, w->ctx->cache_dir);

	if (ret < 0)
		return ret;
	if (!w->n++)
		w->first = *out_s;
	w->last = *out_s;
	return 0;
}

/*
 * No reference on this machine and file system yet: controls cannot
 * tell a slowed file system from this one's usual pace, so pmbench's own
 * last deletion is waited out by the clock, and the controls after it
 * make the reference.
 */
static int establish(struct fswait *w)
{
	double s = 0;
	int ret = 0;

	if (w->known.len)
		ret = wait_clock(w, w->delay + 1 - w->ago);
	for (unsigned i = 0; i < IN_A_ROW && !ret; i++) {
		ret = control(w, &s);
		if (!ret)
			pmbench_control_ref_add(&w->ref, s);
	}
	if (!ret)
		note(w,
		     "pmbench's control had no reference on this file system: "
		     "%u controls made it %.3f s",
		     w->n, pmbench_control_ref_value(&w->ref));
	return ret;
}

static double median_row(const struct fswait *w)
{
	double v[IN_A_ROW];

	memcpy(v, w->row, sizeof(v));
	for (int i = 1; i < IN_A_ROW; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[IN_A_ROW / 2];
}

/* The first control was slow: say what is waited for, and how long. */
static void announce(const struct fswait *w, double ref)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock(&b, w->delay);
	pmbench_ctx_event(w->ctx,
			  "waiting for the file system before timing: "
			  "pmbench's control took %.3f s against its "
			  "reference %.3f s; %s slows file creation for up to "
			  "%u s after a deletion%s; timing starts when %d "
			  "controls in a row are within %.0f %% of the "
			  "reference, in %s (m:ss) at most (--no-fs-wait skips "
			  "this)",
			  w->first, ref, w->why.ptr, w->delay, w->known.ptr,
			  IN_A_ROW, MARGIN * 100, b.ptr);
	pmbench_buf_release(&b);
}

/* Between two controls while it is slow: `gap` s, with a status. */
static void between(const struct fswait *w, double ref, double gap, double left)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock(&b, left);
	pmbench_ctx_status(w->ctx,
			   "waiting for the file system: control %.3f s, "
			   "reference %.3f s, %s left at most",
			   w->last, ref, b.ptr);
	pause_for(w->ctx, gap < left ? gap : left);
	pmbench_buf_release(&b);
}

/*
 * Controls until IN_A_ROW in a row are within MARGIN of the reference,
 * or the bound is reached (1 then).
 */
static int controls(struct fswait *w, double ref)
{
	double gap = (double)w->delay / GAPS, s, left;
	int ret;

	gap = gap < GAP_MIN ? GAP_MIN : gap > GAP_MAX ? GAP_MAX : gap;
	for (;;) {
		ret = control(w, &s);
		if (ret < 0)
			return ret;
		left = w->delay - since_ns(w->t0);
		if (s <= ref * (1 + MARGIN)) {
			w->row[w->in_row++] = s;
			if (w->in_row == IN_A_ROW)
				return 0;
			/*
			 * Once slowed, the row is spread over time: quick
			 * controls back to back came out quiet by chance
			 * on a file system still slowed (measured: 0.11 to
			 * 0.35 s in a row against a reference of 0.06 s).
			 */
			if (w->slowed && left > 0)
				between(w, ref, gap, left);
			if (pmbench_ctx_cancelled(w->ctx))
				return PMBENCH_EINTERRUPTED;
			continue;
		}
		w->in_row = 0;
		if (!w->slowed++)
			announce(w, ref);
		if (left <= 0)
			return 1;
		between(w, ref, gap, left);
		if (pmbench_ctx_cancelled(w->ctx))
			return PMBENCH_EINTERRUPTED;
	}
}

/* The controls against the reference, and what they found. */
static int measure(struct fswait *w)
{
	double ref = pmbench_control_ref_value(&w->ref);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = controls(w, ref);

	pmbench_ctx_done(w->ctx);
	if (ret < 0)
		goto done;
	pmbench_buf_add_clock(&b, since_ns(w->t0));
	if (ret == 1) {
		pmbench_ctx_warn(w->ctx,
				 "the file system is still slow after %s "
				 "(m:ss): pmbench's control took %.3f s "
				 "against its reference %.3f s; timing anyway, "
				 "the first runs may be slower than the rest",
				 b.ptr, w->last, ref);
		/* 360 s after anything that could slow it: this is usual. */
		pmbench_control_ref_add(&w->ref, w->last);
	} else {
		pmbench_control_ref_add(&w->ref, median_row(w));
		waited = (struct waited){ 1, ref, w->t0, w->delay };
		if (w->slowed)
			pmbench_ctx_event(w->ctx,
					  "waited %s (m:ss) for the file "
					  "system: pmbench's control is back "
					  "to %.3f s (reference %.3f s)",
					  b.ptr, w->last, ref);
	}
	if (ret == 1 || w->slowed)
		note(w,
		     "%s %.0f s before the first run: %s slows file creation "
		     "for up to %u s after a deletion%s; pmbench's control "
		     "took %.3f s at first and %.3f s at the end against its "
		     "reference %.3f s (%d in a row within %.0f %% end the "
		     "wait), %u controls",
		     ret == 1 ? "waited the bound," : "waited", since_ns(w->t0),
		     w->why.ptr, w->delay, w->known.ptr, w->first, w->last, ref,
		     IN_A_ROW, MARGIN * 100, w->n);
	ret = 0;
done:
	pmbench_buf_release(&b);
	return ret;
}

/* The control failed (its error pending): time without it, and say so. */
static void control_failed(const struct pmbench_ctx *ctx)
{
	pmbench_ctx_warn(ctx,
			 "cannot tell whether the file system is slowed "
			 "(pmbench's control failed: %s)",
			 pmbench_error_last());
	pmbench_error_clear();
}

/* The controls, once per process and pmbench deletion. */
static int check(struct fswait *w)
{
	static struct timespec checked = { -1, 0 };
	int ret;

	if (checked.tv_sec == w->stamp.tv_sec &&
	    checked.tv_nsec == w->stamp.tv_nsec)
		return 0;
	pmbench_control_ref_load(&w->ref, w->ctx->cache_dir);
	w->t0 = pmbench_now_ns();
	ret = w->ref.nr ? measure(w) : establish(w);
	if (ret == PMBENCH_EINTERRUPTED ||
	    (ret < 0 && pmbench_ctx_cancelled(w->ctx)))
		return PMBENCH_EINTERRUPTED;
	if (ret < 0) {
		/* The control failed: time without it, and say so. */
		note(w, "not measured: pmbench's control failed (%s)",
		     pmbench_error_last());
		control_failed(w->ctx);
		return 0;
	}
	if (pmbench_control_ref_save(&w->ref, w->ctx->cache_dir) < 0)
		pmbench_error_clear();
	checked = w->stamp;
	return 0;
}

int pmbench_workspace_await_reuse(const struct pmbench_ctx *ctx,
				  struct pmbench_buf *note)
{
	struct fswait w = {
		.ctx = ctx,
		.note = note,
		.why = PMBENCH_BUF_INIT,
		.known = PMBENCH_BUF_INIT,
		.ref = PMBENCH_CONTROL_REF_INIT,
	};
	int ret = await_deleter(&w);

	if (ret < 0)
		goto done;
	find_delay(&w);
	if (!w.delay)
		goto done;
	if (ctx->no_fs_wait)
		no_wait(&w);
	else
		ret = check(&w);
done:
	pmbench_buf_release(&w.why);
	pmbench_buf_release(&w.known);
	pmbench_control_ref_release(&w.ref);
	return ret;
}

/* Say why the file system is waited for again, `left` seconds at most. */
static void recheck_announce(const struct pmbench_ctx *ctx, double files_s,
			     double left)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock(&b, left);
	pmbench_ctx_event(ctx,
			  "waiting again for the file system: the first "
			  "round's control took %.3f s against its reference "
			  "%.3f s right after the wait; timing starts when %d "
			  "controls in a row are within %.0f %% of it, in %s "
			  "(m:ss) at most (--no-fs-wait skips this)",
			  files_s, waited.ref, IN_A_ROW, MARGIN * 100, b.ptr);
	pmbench_buf_release(&b);
}

/*
 * Say how the second wait `w` (started at `r0`, at the bound when
 * `bound`) ended, and note it for the result in `note` (may be NULL).
 */
static void recheck_said(const struct fswait *w, double files_s, uint64_t r0,
			 int bound, struct pmbench_buf *note)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock(&b, since_ns(r0));
	if (bound)
		pmbench_ctx_warn(w->ctx,
				 "the file system is still slow at the bound: "
				 "pmbench's control took %.3f s against its "
				 "reference %.3f s; timing anyway, the first "
				 "runs may be slower than the rest",
				 w->last, waited.ref);
	else
		pmbench_ctx_event(w->ctx,
				  "waited %s (m:ss) more for the file system: "
				  "pmbench's control is back to %.3f s "
				  "(reference %.3f s)",
				  b.ptr, w->last, waited.ref);
	if (note)
		pmbench_buf_addf(note,
				 "the first round's control took %.3f s "
				 "against the reference %.3f s right after the "
				 "wait: waited %.0f s more%s, %u controls, the "
				 "last %.3f s",
				 files_s, waited.ref, since_ns(r0),
				 bound ? " (the bound)" : "", w->n, w->last);
	pmbench_buf_release(&b);
}

int pmbench_workspace_recheck_reuse(const struct pmbench_ctx *ctx,
				    double files_s, struct pmbench_buf *note)
{
	struct fswait w = {
		.ctx = ctx,
		.why = PMBENCH_BUF_INIT,
		.known = PMBENCH_BUF_INIT,
		.slowed = 1,
	};
	uint64_t r0 = pmbench_now_ns();
	double left;
	int ret = 0;

	if (!waited.armed)
		return 0;
	waited.armed = 0;
	left = waited.delay - since_ns(waited.t0);
	/* Armed by a measured wait: never under --no-fs-wait. */
	if (files_s <= waited.ref * (1 + MARGIN) || left <= 0)
		return 0;
	w.delay = waited.delay;
	w.t0 = waited.t0;
	w.first = w.last = files_s;
	recheck_announce(ctx, files_s, left);
	ret = controls(&w, waited.ref);
	pmbench_ctx_done(ctx);
	if (ret == PMBENCH_EINTERRUPTED ||
	    (ret < 0 && pmbench_ctx_cancelled(ctx))) {
		ret = PMBENCH_EINTERRUPTED;
		goto done;
	}
	if (ret < 0) {
		control_failed(ctx);
		ret = 0;
		goto done;
	}
	recheck_said(&w, files_s, r0, ret == 1, note);
	ret = 0;
done:
	pmbench_buf_release(&w.why);
	pmbench_buf_release(&w.known);
	return ret;
}

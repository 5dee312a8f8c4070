/*
 * The engine's context (ctx.h): its wake pipe and cancelling, its log
 * and progress callbacks, and the libraries the engine shares, libcurl
 * and libgit2, initialised here once for the process.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <curl/curl.h>
#include <git2.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/text.h"

/* ---- libcurl and libgit2, once -------------------------------------------- */

static pthread_once_t libraries_once = PTHREAD_ONCE_INIT;
static char libraries_error[256];

static void libraries_cleanup(void)
{
	git_libgit2_shutdown();
	curl_global_cleanup();
}

static void libraries_init(void)
{
	CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);
	const git_error *e;

	if (rc != CURLE_OK) {
		snprintf(libraries_error, sizeof(libraries_error),
			 "cannot initialise libcurl: %s",
			 curl_easy_strerror(rc));
		return;
	}
	if (git_libgit2_init() < 0) {
		e = git_error_last();
		snprintf(libraries_error, sizeof(libraries_error),
			 "cannot initialise libgit2: %s",
			 e && e->message ? e->message : "unknown error");
		curl_global_cleanup();
		return;
	}
	atexit(libraries_cleanup);
}

int pmbench_ctx_libraries(void)
{
	pthread_once(&libraries_once, libraries_init);
	if (libraries_error[0])
		return pmbench_error_set("%s", libraries_error);
	return 0;
}

/* ---- The context -------------------------------------------------------- */

static int cloexec_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return -1;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

int pmbench_ctx_init(struct pmbench_ctx *ctx)
{
	int ret;

	ctx->cancel_sig = 0;
	ret = pmbench_ctx_libraries();
	if (ret < 0)
		return ret;
	if (ctx->wake[0] >= 0)
		return 0;
	if (pipe(ctx->wake) < 0)
		return pmbench_error_set("cannot make a pipe: %s",
					 strerror(errno));
	if (cloexec_nonblock(ctx->wake[0]) < 0 ||
	    cloexec_nonblock(ctx->wake[1]) < 0) {
		int e = errno;

		pmbench_ctx_release(ctx);
		return pmbench_error_set("cannot set up a pipe: %s",
					 strerror(e));
	}
	return 0;
}

const char *pmbench_ctx_setup(const struct pmbench_ctx *ctx)
{
	return ctx && ctx->setup ? ctx->setup : "ci/setup";
}

void pmbench_ctx_release(struct pmbench_ctx *ctx)
{
	for (int i = 0; i < 2; i++) {
		if (ctx->wake[i] >= 0)
			close(ctx->wake[i]);
		ctx->wake[i] = -1;
	}
}

void pmbench_ctx_cancel(struct pmbench_ctx *ctx, int sig)
{
	int saved = errno;
	char b = 0;

	if (!ctx->cancel_sig)
		ctx->cancel_sig = sig ? sig : -1;
	/* A full pipe already says "wake up". */
	if (ctx->wake[1] >= 0 && write(ctx->wake[1], &b, 1) < 0)
		errno = saved;
	errno = saved;
}

int pmbench_ctx_cancelled(const struct pmbench_ctx *ctx)
{
	return ctx ? ctx->cancel_sig : 0;
}

int pmbench_ctx_wake_fd(const struct pmbench_ctx *ctx)
{
	return ctx ? ctx->wake[0] : -1;
}

static void vlog(const struct pmbench_ctx *ctx, enum pmbench_log_level level,
		 const char *fmt, va_list ap) PMBENCH_PRINTF(3, 0);

static void vlog(const struct pmbench_ctx *ctx, enum pmbench_log_level level,
		 const char *fmt, va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, clean = PMBENCH_BUF_INIT;

	if (!ctx || !ctx->log)
		return;
	pmbench_buf_vaddf(&b, fmt, ap);
	pmbench_text_clean(&clean, b.ptr, 0);
	ctx->log(level, clean.ptr, ctx->payload);
	pmbench_buf_release(&b);
	pmbench_buf_release(&clean);
}

/*
 * Hand `p` with `text` to the progress callback, the text and the group
 * made fit to print (they name fixtures, tasks and PMs from manifests).
 */
static void progress(const struct pmbench_ctx *ctx,
		     const struct pmbench_progress *p, const char *text)
{
	struct pmbench_buf t = PMBENCH_BUF_INIT, g = PMBENCH_BUF_INIT;
	struct pmbench_progress q = *p;

	pmbench_text_clean(&t, text, 0);
	q.text = t.ptr;
	if (p->group) {
		pmbench_text_clean(&g, p->group, 0);
		q.group = g.ptr;
	}
	ctx->progress(&q, ctx->payload);
	pmbench_buf_release(&t);
	pmbench_buf_release(&g);
}

static void vprogress(const struct pmbench_ctx *ctx,
		      enum pmbench_progress_kind kind, const char *fmt,
		      va_list ap) PMBENCH_PRINTF(3, 0);

static void vprogress(const struct pmbench_ctx *ctx,
		      enum pmbench_progress_kind kind, const char *fmt,
		      va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_progress p;

	if (!ctx || !ctx->progress)
		return;
	if (fmt)
		pmbench_buf_vaddf(&b, fmt, ap);
	memset(&p, 0, sizeof(p));
	p.kind = kind;
	progress(ctx, &p, b.ptr);
	pmbench_buf_release(&b);
}

void pmbench_ctx_note(const struct pmbench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(ctx, PMBENCH_LOG_NOTE, fmt, ap);
	va_end(ap);
}

void pmbench_ctx_warn(const struct pmbench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(ctx, PMBENCH_LOG_WARNING, fmt, ap);
	va_end(ap);
}

void pmbench_ctx_status(const struct pmbench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprogress(ctx, PMBENCH_PROGRESS_STATUS, fmt, ap);
	va_end(ap);
}

void pmbench_ctx_event(const struct pmbench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprogress(ctx, PMBENCH_PROGRESS_EVENT, fmt, ap);
	va_end(ap);
}

void pmbench_ctx_report(const struct pmbench_ctx *ctx,
			const struct pmbench_progress *p, const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	if (!ctx || !ctx->progress)
		return;
	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	progress(ctx, p, b.ptr);
	pmbench_buf_release(&b);
}

void pmbench_ctx_done(const struct pmbench_ctx *ctx)
{
	struct pmbench_progress p;

	if (!ctx || !ctx->progress)
		return;
	memset(&p, 0, sizeof(p));
	p.kind = PMBENCH_PROGRESS_DONE;
	p.text = "";
	ctx->progress(&p, ctx->payload);
}

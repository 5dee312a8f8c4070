#include "pmbench/common.h"

#include <unistd.h>

#include "pmbench/buf.h"
#include "progress.h"

static int is_tty;
static int status_shown;

void pmbench_progress_init(int tty)
{
	is_tty = tty < 0 ? isatty(2) : tty;
}

int pmbench_progress_is_tty(void)
{
	return is_tty;
}

void pmbench_progress_clear(void)
{
	if (is_tty && status_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		status_shown = 0;
	}
}

void pmbench_progress_status(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	if (!is_tty)
		return;
	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	/* Keep it on one line of a narrow terminal. */
	if (b.len > 100)
		pmbench_buf_setlen(&b, 100);
	fprintf(stderr, "\r\033[K%s", b.ptr);
	fflush(stderr);
	status_shown = 1;
	pmbench_buf_release(&b);
}

void pmbench_progress_event(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pmbench_progress_clear();
	fflush(stdout);
	fprintf(stderr, "pmbench: %s\n", b.ptr);
	fflush(stderr);
	pmbench_buf_release(&b);
}

void pmbench_progress_report(const struct pmbench_progress *p, void *payload)
{
	(void)payload;
	switch (p->kind) {
	case PMBENCH_PROGRESS_STATUS:
		pmbench_progress_status("%s", p->text);
		break;
	case PMBENCH_PROGRESS_EVENT:
		pmbench_progress_event("%s", p->text);
		break;
	case PMBENCH_PROGRESS_DONE:
		pmbench_progress_clear();
		break;
	}
}

void pmbench_progress_log(enum pmbench_log_level level, const char *msg,
			  void *payload)
{
	(void)payload;
	pmbench_progress_clear();
	fflush(stdout);
	fprintf(stderr, "pmbench: %s%s\n",
		level == PMBENCH_LOG_WARNING ? "warning: " : "", msg);
	fflush(stderr);
}

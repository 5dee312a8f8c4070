/*
 * The last error, one per thread (common.h's pmbench_error_*()): each
 * message made fit to print (text.c) as it is stored.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/text.h"

/*
 * The last error message, one per thread, as libgit2 keeps
 * git_error_last(): the registry front and the link relay run in threads
 * of pmbench (mirror.h, link.h), and an error one of them sets or clears
 * must not change, or race with, what the main thread is reporting.
 */
static _Thread_local char error_msg[2048];
static _Thread_local int error_isset;

static void error_vset(const char *fmt, va_list ap) PMBENCH_PRINTF(1, 0);

/*
 * Store `msg` as the message, made fit to print: messages quote user data
 * (names from manifests, URLs, paths, a PM's output), so credentials are
 * redacted and terminal controls escaped here, once for every caller. A
 * long message is cut at a character's start.
 */
static void error_store(const char *msg)
{
	struct pmbench_buf clean = PMBENCH_BUF_INIT;
	size_t len;

	pmbench_text_clean(&clean, msg, 0);
	len = clean.len;
	if (len >= sizeof(error_msg)) {
		len = sizeof(error_msg) - 1;
		while (len && ((unsigned char)clean.ptr[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(error_msg, clean.ptr, len);
	error_msg[len] = '\0';
	error_isset = 1;
	pmbench_buf_release(&clean);
}

static void error_vset(const char *fmt, va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_vaddf(&b, fmt, ap);
	error_store(b.ptr);
	pmbench_buf_release(&b);
}

int pmbench_error_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(fmt, ap);
	va_end(ap);
	return PMBENCH_ERROR;
}

int pmbench_error_setc(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(fmt, ap);
	va_end(ap);
	return code;
}

void pmbench_error_prefix(const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	/* The old message is clean already; cleaning twice is once. */
	pmbench_buf_addf(&b, ": %s", pmbench_error_last());
	error_store(b.ptr);
	pmbench_buf_release(&b);
}

const char *pmbench_error_last(void)
{
	return error_isset ? error_msg : "unknown error";
}

void pmbench_error_clear(void)
{
	error_isset = 0;
	error_msg[0] = '\0';
}

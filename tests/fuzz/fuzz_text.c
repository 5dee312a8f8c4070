/*
 * What pmbench makes of hostile text before it prints or records it
 * (src/util/text.c): names and URLs from manifests and result files, a
 * PM's output. Properties: escaped text holds no terminal control (no
 * C0 but the line breaks asked for, no DEL, no C1, no bidirectional
 * override) and is valid UTF-8; escaping, redacting and both together
 * change nothing the second time; redacted text holds no secret the
 * redaction knows; and the date reader accepts only what it can give
 * back (src/util/date.c).
 */
#include "pmbench/common.h"

#include <time.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/date.h"
#include "pmbench/text.h"

/* The length of a valid UTF-8 character at `p`, 0 if there is none. */
static size_t utf8(const unsigned char *p, size_t n, unsigned *cp)
{
	size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;

	if (p[0] >= 0x80 && p[0] < 0xc2)
		return 0;
	if (p[0] > 0xf4 || len > n)
		return 0;
	*cp = len == 1 ? p[0] : p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (p[i] & 0x3f);
	}
	return len;
}

static void check_shown(const struct pmbench_buf *b, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)b->ptr;

	if (strlen(b->ptr) != b->len)
		FUZZ_FAIL("a NUL in escaped text");
	for (size_t i = 0; i < b->len;) {
		unsigned cp;
		size_t n = utf8(p + i, b->len - i, &cp);

		if (!n)
			FUZZ_FAIL("invalid UTF-8 at %zu of '%s'", i, b->ptr);
		if ((cp < 0x20 && !((flags & PMBENCH_TEXT_LINES) &&
				    (cp == '\n' || cp == '\t'))) ||
		    (cp >= 0x7f && cp <= 0x9f) ||
		    (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			FUZZ_FAIL("control U+%04X shown at %zu", cp, i);
		i += n;
	}
}

static void escaping(const char *s, size_t len, unsigned flags)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;

	pmbench_text_escape(&a, s, len, flags);
	check_shown(&a, flags);
	pmbench_text_escape(&b, a.ptr, a.len, flags & ~PMBENCH_TEXT_NO_ANSI);
	if (strcmp(a.ptr, b.ptr))
		FUZZ_FAIL("escaping twice differs:\n  %s\n  %s", a.ptr, b.ptr);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
}

static void redaction(const char *s)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	char *c1 = pmbench_text_clean_dup(s, 0), *c2;

	pmbench_text_redact(&a, s);
	pmbench_text_redact(&b, a.ptr);
	if (strcmp(a.ptr, b.ptr))
		FUZZ_FAIL("redacting twice differs:\n  %s\n  %s", a.ptr, b.ptr);
	if (pmbench_text_has_secret(a.ptr))
		FUZZ_FAIL("a secret left in '%s'", a.ptr);
	c2 = pmbench_text_clean_dup(c1, 0);
	if (strcmp(c1, c2))
		FUZZ_FAIL("cleaning twice differs:\n  %s\n  %s", c1, c2);
	free(c1);
	free(c2);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
}

/* An accepted date is the one gmtime gives back for its seconds. */
static void date(const char *s)
{
	int64_t t;
	time_t tt;
	struct tm tm;
	char back[64];

	if (pmbench_date_parse(&t, s) < 0)
		return;
	/* A leap second reads as the next second: compare one before. */
	tt = (time_t)(t - (s[17] == '6'));
	/* strftime's %Y does not pad years before 1000: by hand. */
	if (!gmtime_r(&tt, &tm))
		FUZZ_FAIL("date '%s' gives %lld, not a time", s, (long long)t);
	snprintf(back, sizeof(back), "%04d-%02d-%02dT%02d:%02d:%02dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	if (s[17] == '6') {
		back[17] = '6';
		back[18] = '0';
	}
	if (strcmp(back, s))
		FUZZ_FAIL("date '%s' reads back as '%s'", s, back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	int state = 0;

	escaping((const char *)data, size, 0);
	escaping((const char *)data, size, PMBENCH_TEXT_LINES);
	escaping((const char *)data, size,
		 PMBENCH_TEXT_LINES | PMBENCH_TEXT_NO_ANSI);
	redaction(s);
	date(s);
	for (size_t i = 0; i < size; i++)
		if (pmbench_text_ansi_step(&state, data[i]) && data[i] == 0x1b)
			FUZZ_FAIL("ESC at %zu taken for text", i);
	free(s);
	return 0;
}

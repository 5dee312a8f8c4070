/*
 * An HTTP/1.x request head, parsed and checked for the registry front
 * (httphead.h). Strict where a lenient reading would pass something on
 * to verdaccio that the client did not mean or should not reach: a NUL
 * or a bare CR or LF, a version that is not 1.0 or 1.1, a path that
 * climbs out with "..", however encoded (issue 24: "GET / HTTP/1." and
 * "/../../etc/passwd" were forwarded).
 */
/* memmem() */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <ctype.h>
#include <strings.h>

#include "httphead.h"

char *pmbench_httphead_value(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	len -= n + 1;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n' ||
		       line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	return pmbench_xstrndup(line, len);
}

void pmbench_httphead_release(struct pmbench_httphead *r)
{
	free(r->path);
	free(r->accept);
	free(r->accept_encoding);
	free(r->if_none_match);
	free(r->connection);
	memset(r, 0, sizeof(*r));
}

/* A token character (RFC 9110): method and header names. */
static int is_tchar(unsigned char ch)
{
	return isalnum(ch) || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* No control byte but HTAB, and CR only as the start of a CRLF. */
static int bytes_ok(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch == '\r' && i + 1 < n && p[i + 1] == '\n') {
			i++;
			continue;
		}
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return 0;
	}
	return 1;
}

static int hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = (char)tolower((unsigned char)ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Whether a decoded path segment of `len` bytes starting `seg` climbs. */
static int dot_segment(const char *seg, size_t len)
{
	return (len == 1 && seg[0] == '.') ||
	       (len == 2 && seg[0] == '.' && seg[1] == '.');
}

/* See pmbench_httphead_parse(). */
static int target_ok(const char *t, size_t n)
{
	size_t path = 0, seglen = 0;
	char seg[2] = { 0, 0 };

	if (!n || t[0] != '/')
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)t[i];

		if (ch <= 0x20 || ch >= 0x7f || ch == '#' || ch == '\\')
			return 0;
		if (ch == '%' &&
		    (i + 2 >= n || hex(t[i + 1]) < 0 || hex(t[i + 2]) < 0))
			return 0;
	}
	while (path < n && t[path] != '?')
		path++;
	for (size_t i = 0; i <= path; i++) {
		int ch = i == path ? '/' : (unsigned char)t[i];

		if (ch == '%') {
			ch = hex(t[i + 1]) * 16 + hex(t[i + 2]);
			i += 2;
			if (ch < 0x20 || ch == 0x7f || ch == '\\')
				return 0;
		}
		if (ch == '/') {
			if (dot_segment(seg, seglen))
				return 0;
			seglen = 0;
			continue;
		}
		if (seglen < sizeof(seg))
			seg[seglen] = (char)ch;
		seglen++;
	}
	return 1;
}

/* METHOD SP origin-form SP HTTP/1.x, nothing more. */
static int request_line(struct pmbench_httphead *r, const char *line, size_t n)
{
	const char *sp1 = memchr(line, ' ', n), *sp2, *version;
	size_t mlen;

	if (!sp1)
		return PMBENCH_HTTPHEAD_MALFORMED;
	mlen = (size_t)(sp1 - line);
	if (!mlen || mlen >= sizeof(r->method))
		return PMBENCH_HTTPHEAD_MALFORMED;
	for (size_t i = 0; i < mlen; i++)
		if (!is_tchar((unsigned char)line[i]))
			return PMBENCH_HTTPHEAD_MALFORMED;
	sp2 = memchr(sp1 + 1, ' ', n - mlen - 1);
	if (!sp2)
		return PMBENCH_HTTPHEAD_MALFORMED;
	version = sp2 + 1;
	if ((size_t)(line + n - version) != 8 ||
	    (memcmp(version, "HTTP/1.1", 8) && memcmp(version, "HTTP/1.0", 8)))
		return PMBENCH_HTTPHEAD_MALFORMED;
	if (!target_ok(sp1 + 1, (size_t)(sp2 - sp1 - 1)))
		return PMBENCH_HTTPHEAD_TARGET;
	memcpy(r->method, line, mlen);
	r->path = pmbench_xstrndup(sp1 + 1, (size_t)(sp2 - sp1 - 1));
	r->http10 = version[7] == '0';
	return PMBENCH_HTTPHEAD_OK;
}

static void replace(char **field, char *value)
{
	free(*field);
	*field = value;
}

/* One header line: a token, a colon, a value (the bytes checked). */
static int header(struct pmbench_httphead *r, const char *p, size_t len)
{
	const char *colon = memchr(p, ':', len);
	char *v;

	if (!colon || colon == p)
		return PMBENCH_HTTPHEAD_MALFORMED;
	for (const char *q = p; q < colon; q++)
		if (!is_tchar((unsigned char)*q))
			return PMBENCH_HTTPHEAD_MALFORMED;
	if ((v = pmbench_httphead_value(p, len, "Accept")))
		replace(&r->accept, v);
	else if ((v = pmbench_httphead_value(p, len, "Accept-Encoding")))
		replace(&r->accept_encoding, v);
	else if ((v = pmbench_httphead_value(p, len, "If-None-Match")))
		replace(&r->if_none_match, v);
	else if ((v = pmbench_httphead_value(p, len, "Connection")))
		replace(&r->connection, v);
	else if ((v = pmbench_httphead_value(p, len, "Content-Length"))) {
		if (pmbench_parse_u64(&r->content_length, v) < 0)
			r->content_length = UINT64_MAX;
		free(v);
	} else if ((v = pmbench_httphead_value(p, len, "Transfer-Encoding"))) {
		r->chunked = 1;
		free(v);
	}
	return PMBENCH_HTTPHEAD_OK;
}

int pmbench_httphead_parse(struct pmbench_httphead *out, const char *text,
			   size_t len)
{
	const char *end = text + len, *p = text, *eol;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!bytes_ok(text, len))
		return PMBENCH_HTTPHEAD_MALFORMED;
	eol = memmem(p, len, "\r\n", 2);
	if (!eol)
		eol = end;
	ret = request_line(out, p, (size_t)(eol - p));
	while (!ret && eol < end) {
		p = eol + 2;
		eol = memmem(p, (size_t)(end - p), "\r\n", 2);
		if (!eol)
			eol = end;
		ret = header(out, p, (size_t)(eol - p));
	}
	return ret;
}

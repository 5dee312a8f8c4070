/*
 * Text made fit to print and to record: credentials redacted (git's
 * transport_anonymize_url() and curl's habit of never echoing a URL's
 * password), terminal controls escaped, ANSI sequences dropped from
 * quoted program output.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/text.h"

#define MASK "***"

static int is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int is_word(unsigned char c)
{
	return is_alnum(c) || c == '_';
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/*
 * Where a URL (or a word holding a secret) ends: white space and other
 * controls, quotes, angle brackets and the backslash. The backslash and
 * the controls stop it so that the escaped form of a text ("\x1b") is
 * cut where the raw one was, and redacting after escaping finds what
 * redacting before it found.
 */
static int url_stop(unsigned char c)
{
	return c < 0x21 || c == 0x7f || c == '"' || c == '\'' || c == '`' ||
	       c == '<' || c == '>' || c == '\\';
}

/*
 * At `s + i`, "://" after a scheme: the authority, its userinfo (up to
 * the last '@') replaced. Returns the bytes used.
 */
static size_t authority(struct pmbench_buf *out, const char *s, size_t i)
{
	size_t a = i + 3, e = a, at = 0;

	for (; s[e] && !url_stop((unsigned char)s[e]); e++) {
		if (s[e] == '/' || s[e] == '?' || s[e] == '#')
			break;
		if (s[e] == '@')
			at = e + 1;
	}
	pmbench_buf_adds(out, "://");
	if (!at)
		return 3;
	pmbench_buf_adds(out, MASK "@");
	return at - i;
}

/* Does `name` (`len` bytes) contain `part`, in any case? */
static int contains(const char *name, size_t len, const char *part)
{
	size_t n = strlen(part);

	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;

		while (k < n && lower((unsigned char)name[i + k]) == part[k])
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

/* A query parameter whose value is a secret, by its name. */
static int secret_param(const char *name, size_t len)
{
	static const char *const parts[] = {
		"token",     "secret", "passw",	  "auth",    "credential",
		"signature", "apikey", "api_key", "api-key", "session",
	};
	static const char *const whole[] = { "key", "sig", "pwd", "pass",
					     "code" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(parts); i++)
		if (contains(name, len, parts[i]))
			return 1;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(whole); i++)
		if (strlen(whole[i]) == len && contains(name, len, whole[i]))
			return 1;
	return 0;
}

static int param_sep(unsigned char c)
{
	return c == '?' || c == '&' || c == '#' || c == ';';
}

/*
 * At `s + i`, a separator of a URL's query (or fragment): the next
 * parameter, its value replaced when its name says it is a secret.
 */
static size_t param(struct pmbench_buf *out, const char *s, size_t i)
{
	size_t n = i + 1, v;

	pmbench_buf_addch(out, s[i]);
	while (s[n] && !url_stop((unsigned char)s[n]) &&
	       !param_sep((unsigned char)s[n]) && s[n] != '=' && s[n] != '/')
		n++;
	if (s[n] != '=' || !secret_param(s + i + 1, n - i - 1))
		return 1;
	pmbench_buf_add(out, s + i + 1, n - i);
	pmbench_buf_adds(out, MASK);
	for (v = n + 1; s[v] && !url_stop((unsigned char)s[v]) &&
			!param_sep((unsigned char)s[v]);
	     v++)
		;
	return v - i;
}

/* A token known by its prefix: at least `min` characters follow it. */
struct prefix {
	const char *prefix;
	size_t min;
	const char *also; /* characters allowed besides letters and digits */
};

static const struct prefix prefixes[] = {
	{ "ghp_", 20, "" },
	{ "gho_", 20, "" },
	{ "ghu_", 20, "" },
	{ "ghs_", 20, "" },
	{ "ghr_", 20, "" },
	{ "github_pat_", 20, "_" },
	{ "glpat-", 16, "_-" },
	{ "npm_", 30, "" },
	{ "Bearer ", 8, "._~+/=-_" },
	{ "bearer ", 8, "._~+/=-_" },
	/* A PEM private key, as npm's `key` setting holds one. */
	{ "PRIVATE KEY-----", 16, "+/=\\\n" },
};

/* How many characters of a prefixed token follow at `s`. */
static size_t token_len(const char *s, const struct prefix *p)
{
	size_t n = 0;

	while (s[n] && (is_alnum((unsigned char)s[n]) ||
			(s[n] != '\0' && strchr(p->also, s[n]))))
		n++;
	return n;
}

/* At `s + i`, the start of a word: a prefixed token or setting. */
static size_t prefixed(struct pmbench_buf *out, const char *s, size_t i)
{
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(prefixes); k++) {
		const struct prefix *p = &prefixes[k];
		size_t plen = strlen(p->prefix), n;

		if (strncmp(s + i, p->prefix, plen))
			continue;
		n = token_len(s + i + plen, p);
		/*
		 * "***" itself is no token, and a token is a whole word:
		 * what follows it cannot start one, so redacting twice is
		 * redacting once.
		 */
		if (n < p->min || !strncmp(s + i + plen, MASK, n) ||
		    is_word((unsigned char)s[i + plen + n]))
			continue;
		pmbench_buf_adds(out, p->prefix);
		pmbench_buf_adds(out, MASK);
		return plen + n;
	}
	return 0;
}

/*
 * The settings that hold a credential, in the PMs' configuration files
 * (.npmrc, .yarnrc, .yarnrc.yml, bunfig.toml), their environment
 * variables and HTTP headers; compared in lower case with '-' as '_'.
 * npm, pnpm, yarn 1, bun and deno read .npmrc's `_auth`, `_authToken`,
 * `_password` (also as `//host/:_authToken`, `npm_config__auth`), npm its
 * `otp`; yarn 4 `npmAuthToken`, `npmAuthIdent` (YARN_NPM_AUTH_TOKEN,
 * YARN_NPM_AUTH_IDENT); bun's bunfig `token` and `password`; deno
 * DENO_AUTH_TOKENS; actions/setup-node NODE_AUTH_TOKEN.
 */
static const char *const secret_keys[] = {
	"_auth",	"_authtoken", "_password",     "npmauthtoken",
	"npmauthident", "token",      "password",      "passwd",
	"secret",	"otp",	      "authorization",
};
static const char *const secret_key_ends[] = {
	"_auth",   "_authtoken", "_password", "_passwd",	"_token",
	"_tokens", "_secret",	 "_ident",    "_authorization", "_otp",
};

static int key_char(unsigned char c)
{
	return is_word(c) || c == '-';
}

/* Is `key` (`n` bytes) equal to `want` in lower case, '-' as '_'? */
static int key_is(const char *key, size_t n, const char *want)
{
	if (strlen(want) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = lower((unsigned char)key[i]);

		if ((c == '-' ? '_' : c) != (unsigned char)want[i])
			return 0;
	}
	return 1;
}

static int secret_key(const char *key, size_t n)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(secret_keys); i++)
		if (key_is(key, n, secret_keys[i]))
			return 1;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(secret_key_ends); i++) {
		size_t e = strlen(secret_key_ends[i]);

		if (n > e && key_is(key + n - e, e, secret_key_ends[i]))
			return 1;
	}
	return 0;
}

/* Where a setting's value ends: a URL's end, or a list's separator. */
static size_t value_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !url_stop((unsigned char)s[n]) &&
	       !strchr(",;&})]", s[n]))
		n++;
	return n;
}

/* Is the `n` bytes at `s` an HTTP authentication scheme ("Basic")? */
static int scheme(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_alnum((unsigned char)s[i]))
			return 0;
	return n > 0;
}

/*
 * At `s + i`, after a secret setting's name, its closing quote and its
 * separator ('=' or ':', or yarn 1's blank between two quoted words):
 * where the value starts, or 0 if there is no separator.
 */
static size_t after_separator(const char *s, size_t i)
{
	size_t j = i;
	int quoted = s[j] == '"' || s[j] == '\'';

	j += quoted;
	while (s[j] == ' ' || s[j] == '\t')
		j++;
	if (s[j] == '=' || s[j] == ':') {
		j++;
		while (s[j] == ' ' || s[j] == '\t')
			j++;
	} else if (!quoted || j == i + 1 || (s[j] != '"' && s[j] != '\'')) {
		return 0;
	}
	return j + (s[j] == '"' || s[j] == '\'');
}

/*
 * At `s + i`, the start of a word: a setting whose name says it holds a
 * credential (`_authToken=`, `"npmAuthToken": "`, `NODE_AUTH_TOKEN=`,
 * `Authorization: Basic `), its value replaced. Returns the bytes used.
 */
static size_t setting(struct pmbench_buf *out, const char *s, size_t i)
{
	size_t k = 0, v, n;

	while (key_char((unsigned char)s[i + k]))
		k++;
	if (!k || !secret_key(s + i, k))
		return 0;
	v = after_separator(s, i + k);
	if (!v)
		return 0;
	n = value_len(s + v);
	/* A header's scheme stays: "Basic ***", as "Bearer ***". */
	if (k >= 13 && key_is(s + i + k - 13, 13, "authorization") &&
	    s[v + n] == ' ' && value_len(s + v + n + 1) && scheme(s + v, n)) {
		v += n + 1;
		n = value_len(s + v);
	}
	if (!n || (n == strlen(MASK) && !strncmp(s + v, MASK, n)))
		return 0;
	pmbench_buf_add(out, s + i, v - i);
	pmbench_buf_adds(out, MASK);
	return v + n - i;
}

/* One pass over a whole text: `out` gets what `s` becomes. */
typedef void (*pass_fn)(struct pmbench_buf *out, const char *s, unsigned flags);

/* Passes before a text is taken as settled; two or three in practice. */
#define PASSES 16

/*
 * Apply `pass` to its own output until it changes nothing: one pass can
 * uncover what another hid (a secret's value that swallowed a "://", an
 * escape that makes a word), and callers rely on a second application
 * changing nothing. ANSI sequences are dropped by the first pass only:
 * none is left after it.
 */
static void settle(struct pmbench_buf *out, const char *s, unsigned flags,
		   pass_fn pass)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT, t;

	pass(&a, s, flags);
	for (int i = 1; i < PASSES; i++) {
		pmbench_buf_reset(&b);
		pass(&b, a.ptr, flags & ~(unsigned)PMBENCH_TEXT_NO_ANSI);
		if (b.len == a.len && !memcmp(a.ptr, b.ptr, a.len))
			break;
		t = a;
		a = b;
		b = t;
	}
	pmbench_buf_add(out, a.ptr, a.len);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
}

static void redact_once(struct pmbench_buf *out, const char *s, unsigned flags)
{
	size_t i = 0;
	int in_url = 0;

	(void)flags;
	while (s && s[i]) {
		unsigned char c = (unsigned char)s[i];
		size_t used = 0;

		if (url_stop(c))
			in_url = 0;
		/*
		 * Any "://" starts an authority, whatever precedes it: a
		 * scheme, or a byte that escaping turns into one ("\xd6").
		 */
		if (c == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
			used = authority(out, s, i);
			in_url = 1;
		} else if (in_url && param_sep(c)) {
			used = param(out, s, i);
		} else if (!i || !is_word((unsigned char)s[i - 1])) {
			used = prefixed(out, s, i);
			if (!used)
				used = setting(out, s, i);
		}
		if (used) {
			i += used;
			continue;
		}
		pmbench_buf_addch(out, (char)c);
		i++;
	}
}

void pmbench_text_redact(struct pmbench_buf *out, const char *s)
{
	settle(out, s ? s : "", 0, redact_once);
}

char *pmbench_text_redact_dup(const char *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!s)
		return NULL;
	pmbench_text_redact(&b, s);
	return pmbench_buf_detach(&b);
}

int pmbench_text_has_secret(const char *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	pmbench_text_redact(&b, s);
	ret = strcmp(b.ptr, s ? s : "") != 0;
	pmbench_buf_release(&b);
	return ret;
}

void pmbench_text_env_record(struct pmbench_buf *out, const char *kv)
{
	static const char *const plain[] = {
		"", "0", "1", "true", "false", "yes", "no", "on", "off", "none"
	};
	const char *eq = strchr(kv, '=');
	size_t n;

	if (!eq) {
		pmbench_buf_adds(out, kv);
		return;
	}
	n = strlen(eq + 1);
	pmbench_buf_add(out, kv, (size_t)(eq - kv) + 1);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(plain); i++)
		if (key_is(eq + 1, n, plain[i])) {
			pmbench_buf_adds(out, eq + 1);
			return;
		}
	pmbench_buf_adds(out, MASK);
}

/* ---- Escaping ----------------------------------------------------------- */

size_t pmbench_text_utf8(const char *s, size_t n, unsigned *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c = p[0], min;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		*cp = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		*cp = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		*cp = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (p[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* Is code point `cp` shown as it is? */
static int printable(unsigned cp, unsigned flags)
{
	if (cp == '\n' || cp == '\t')
		return (flags & PMBENCH_TEXT_LINES) != 0;
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return 0;
	/* Bidirectional overrides and isolates reorder what follows. */
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return 1;
}

/*
 * Every byte as \xNN, a line feed too: a letter after the backslash
 * ("\n" then "pm_...") could start a word that redaction takes for a
 * token, where a hex digit cannot.
 */
static void add_escaped(struct pmbench_buf *out, const unsigned char *p,
			size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		pmbench_buf_adds(out, "\\x");
		pmbench_buf_addch(out, hex[p[i] >> 4]);
		pmbench_buf_addch(out, hex[p[i] & 15]);
	}
}

void pmbench_text_escape(struct pmbench_buf *out, const char *s, size_t len,
			 unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	int ansi = 0;
	size_t i = 0;

	pmbench_buf_grow(out, len);
	while (i < len) {
		unsigned cp;
		size_t n;

		if ((flags & PMBENCH_TEXT_NO_ANSI) &&
		    !pmbench_text_ansi_step(&ansi, p[i])) {
			i++;
			continue;
		}
		n = pmbench_text_utf8(s + i, len - i, &cp);
		if (!n)
			add_escaped(out, p + i, 1);
		else if (printable(cp, flags))
			pmbench_buf_add(out, p + i, n);
		else
			add_escaped(out, p + i, n);
		i += n ? n : 1;
	}
}

static void clean_once(struct pmbench_buf *out, const char *s, unsigned flags)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	redact_once(&b, s, 0);
	pmbench_text_escape(out, b.ptr, b.len, flags);
	pmbench_buf_release(&b);
}

void pmbench_text_clean(struct pmbench_buf *out, const char *s, unsigned flags)
{
	settle(out, s ? s : "", flags, clean_once);
}

char *pmbench_text_clean_dup(const char *s, unsigned flags)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!s)
		return NULL;
	pmbench_text_clean(&b, s, flags);
	return pmbench_buf_detach(&b);
}

/* ---- ANSI sequences ----------------------------------------------------- */

enum ansi_state {
	A_TEXT,
	A_ESC,	      /* after ESC */
	A_CSI,	      /* ESC [ parameters and intermediates */
	A_STRING,     /* OSC, DCS, SOS, PM, APC: up to BEL or ESC \ */
	A_STRING_ESC, /* ESC inside a string */
	A_NF	      /* ESC, intermediates, then a final byte */
};

static int after_esc(int *state, unsigned char ch)
{
	if (ch == 0x1b)
		return 0;
	if (ch == '[') {
		*state = A_CSI;
		return 0;
	}
	if (ch == ']' || ch == 'P' || ch == 'X' || ch == '^' || ch == '_') {
		*state = A_STRING;
		return 0;
	}
	if (ch >= 0x20 && ch <= 0x2f) {
		*state = A_NF;
		return 0;
	}
	*state = A_TEXT;
	/* A two-byte escape (ESC 7, ESC c); a control after ESC is text. */
	return !(ch >= 0x30 && ch <= 0x7e);
}

int pmbench_text_ansi_step(int *state, unsigned char ch)
{
	switch (*state) {
	case A_ESC:
		return after_esc(state, ch);
	case A_CSI:
	case A_NF:
		if (ch == 0x1b) {
			*state = A_ESC;
			return 0;
		}
		if (ch >= 0x20 && ch <= (*state == A_CSI ? 0x3f : 0x2f))
			return 0;
		*state = A_TEXT;
		/* A final byte ends it; anything else aborts it, as text. */
		return !(ch >= 0x30 && ch <= 0x7e);
	case A_STRING:
	case A_STRING_ESC:
		if (ch == '\n') {
			*state = A_TEXT;
			return 1;
		}
		if (*state == A_STRING_ESC && ch == '\\') {
			/* ESC \ (ST) ends the string. */
			*state = A_TEXT;
			return 0;
		}
		if (*state == A_STRING_ESC && ch != 0x1b)
			return after_esc(state, ch);
		if (ch == 0x07)
			*state = A_TEXT;
		else if (ch == 0x1b)
			*state = A_STRING_ESC;
		return 0;
	default:
		if (ch == 0x1b) {
			*state = A_ESC;
			return 0;
		}
		return 1;
	}
}

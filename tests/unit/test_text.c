/*
 * Text made fit to print (src/util/text.c): credentials redacted,
 * terminal controls escaped, ANSI sequences dropped; and the places that
 * apply it for everyone: the error store and the engine's log.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/text.h"

static const char *redacted(struct pmbench_buf *b, const char *s)
{
	pmbench_buf_reset(b);
	pmbench_text_redact(b, s);
	return b->ptr;
}

static const char *escaped(struct pmbench_buf *b, const char *s, unsigned flags)
{
	pmbench_buf_reset(b);
	pmbench_text_escape(b, s, strlen(s), flags);
	return b->ptr;
}

/* Redacting the redacted text changes nothing. */
static int stable(const char *s)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	int ok;

	pmbench_text_redact(&a, s);
	pmbench_text_redact(&b, a.ptr);
	ok = !strcmp(a.ptr, b.ptr);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
	return ok;
}

TEST(redact_userinfo)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static const char *const cases[][2] = {
		{ "cannot clone 'https://alice:s3cretPASS@127.0.0.1:9/r.git'",
		  "cannot clone 'https://***@127.0.0.1:9/r.git'" },
		{ "https://ghp_0123456789abcdefghijABCDEFGHIJklmn"
		  "@github.com/o/r",
		  "https://***@github.com/o/r" },
		{ "git+ssh://git@host:22/x and http://u@h",
		  "git+ssh://***@host:22/x and http://***@h" },
		/* The last '@' of the authority ends the userinfo. */
		{ "https://a@b:c@host/p@q", "https://***@host/p@q" },
		/* No userinfo: as it was. */
		{ "https://registry.npmjs.org/@scope%2fpkg",
		  "https://registry.npmjs.org/@scope%2fpkg" },
		{ "user@example.com wrote ://x@y",
		  "user@example.com wrote ://***@y" },
		{ "\xd6://u:p@h \001://v:q@h", "\xd6://***@h \001://***@h" },
		{ "git@github.com:o/r.git", "git@github.com:o/r.git" },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		CHECK_STR(redacted(&b, cases[i][0]), cases[i][1]);
		CHECK(stable(cases[i][0]));
	}
	pmbench_buf_release(&b);
}

TEST(redact_tokens)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static const char *const cases[][2] = {
		{ "https://h/r.git?access_token=abc&x=1#token=zz",
		  "https://h/r.git?access_token=***&x=1#token=***" },
		{ "http://h/p?X-Amz-Signature=f00&X-Amz-Credential=k&a=b",
		  "http://h/p?X-Amz-Signature=***&X-Amz-Credential=***&a=b" },
		{ "http://h/p?key=1&monkey=2&sig=3",
		  "http://h/p?key=***&monkey=2&sig=***" },
		/* A query outside a URL is text. */
		{ "why?key=1", "why?key=1" },
		{ "//registry.npmjs.org/:_authToken=npm_abc \"_auth=Zm9v\"",
		  "//registry.npmjs.org/:_authToken=*** \"_auth=***\"" },
		{ "Authorization: Bearer eyJhbGciOi.J9x-y_z",
		  "Authorization: Bearer ***" },
		{ "token ghp_0123456789abcdefghijABCDEFGHIJklmn end",
		  "token ghp_*** end" },
		{ "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
		  "github_pat_***" },
		{ "glpat-abcdefghij0123456789", "glpat-***" },
		{ "npm_0123456789abcdefghijABCDEFGHIJklmn", "npm_***" },
		/* Words that only look alike stay. */
		{ "npm_config_cache=/x ghp_short my_ghp_0123456789abcdefghij",
		  "npm_config_cache=/x ghp_short my_ghp_0123456789abcdefghij" },
		/*
		 * A token runs to the word's end, or it is none; the word
		 * is a setting's name ending in "_authToken".
		 */
		{ "ghp_0123456789abcdefghijABCDEFGHIJklmn_authToken=x",
		  "ghp_0123456789abcdefghijABCDEFGHIJklmn_authToken=***" },
		{ "Bearer of news", "Bearer of news" },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		CHECK_STR(redacted(&b, cases[i][0]), cases[i][1]);
		CHECK(stable(cases[i][0]));
	}
	CHECK(pmbench_text_has_secret("https://a:b@h/"));
	CHECK(pmbench_text_has_secret("npmAuthIdent: alice:s3cret"));
	CHECK(!pmbench_text_has_secret("npmAuthToken: ***"));
	CHECK(!pmbench_text_has_secret("https://h/"));
	CHECK(!pmbench_text_has_secret("https://***@h/"));
	CHECK(pmbench_text_redact_dup(NULL) == NULL);
	pmbench_buf_release(&b);
}

/*
 * Settings that hold a credential, by their name, in every syntax the
 * PMs' files, variables and headers use (issue 32: a failing PM printed
 * all five of the first ones into the result and the reports).
 */
TEST(redact_settings)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static const char *const cases[][2] = {
		{ "Authorization: Basic YWxpY2U6czNjcmV0",
		  "Authorization: Basic ***" },
		{ "_auth = v", "_auth = ***" },
		{ "_auth=\"v\"", "_auth=\"***\"" },
		{ "{\"_authToken\": \"v\"}", "{\"_authToken\": \"***\"}" },
		{ "npmAuthToken: v", "npmAuthToken: ***" },
		{ "    npmAuthIdent: \"alice:s3cret\"",
		  "    npmAuthIdent: \"***\"" },
		{ "npmAuthIdent: alice:s3cret", "npmAuthIdent: ***" },
		{ "//r.example/:_password=cGFzcw==",
		  "//r.example/:_password=***" },
		/* yarn 1's .yarnrc: two quoted words. */
		{ "\"//r.example/:_authToken\" \"abc\"",
		  "\"//r.example/:_authToken\" \"***\"" },
		/* bunfig.toml's inline tables. */
		{ "\"@o\" = { token = \"$t\", url = \"https://r/\" }",
		  "\"@o\" = { token = \"***\", url = \"https://r/\" }" },
		{ "{ username = \"u\", password = \"pw\" }",
		  "{ username = \"u\", password = \"***\" }" },
		/* Variables: npm's, yarn's, deno's, setup-node's, headers. */
		{ "NPM_CONFIG__AUTH=x YARN_NPM_AUTH_IDENT=a:b",
		  "NPM_CONFIG__AUTH=*** YARN_NPM_AUTH_IDENT=***" },
		{ "DENO_AUTH_TOKENS=a1b2@deno.land NODE_AUTH_TOKEN=t1",
		  "DENO_AUTH_TOKENS=*** NODE_AUTH_TOKEN=***" },
		{ "npm-otp: 123456 X-Auth-Token:abc",
		  "npm-otp: *** X-Auth-Token:***" },
		{ "Proxy-Authorization: Bearer abc.def",
		  "Proxy-Authorization: Bearer ***" },
		{ "key=\"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n"
		  "-----END PRIVATE KEY-----\"",
		  "key=\"-----BEGIN PRIVATE KEY-----***-----END PRIVATE "
		  "KEY-----\"" },
		/* Names that only look alike, and no value: text. */
		{ "my_authTokenizer=1 tokens: 3 _auth=", "my_authTokenizer=1 "
							 "tokens: 3 _auth=" },
		{ "Unexpected token: } and the password prompt",
		  "Unexpected token: } and the password prompt" },
		{ "npm_config_cache=/x username=u", "npm_config_cache=/x "
						    "username=u" },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		CHECK_STR(redacted(&b, cases[i][0]), cases[i][1]);
		CHECK(stable(cases[i][0]));
	}
	pmbench_buf_release(&b);
}

/* An --env value is recorded only when it cannot be a credential. */
TEST(env_record)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static const char *const cases[][2] = {
		{ "NODE_AUTH_TOKEN=npm_abc", "NODE_AUTH_TOKEN=***" },
		{ "FOO=s3cret", "FOO=***" },
		{ "NODE_OPTIONS=--max-old-space-size=4096",
		  "NODE_OPTIONS=***" },
		{ "CYPRESS_INSTALL_BINARY=0", "CYPRESS_INSTALL_BINARY=0" },
		{ "CI=true", "CI=true" },
		{ "BROWSER=None", "BROWSER=None" },
		{ "EMPTY=", "EMPTY=" },
		{ "PIN=1234", "PIN=***" },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		pmbench_buf_reset(&b);
		pmbench_text_env_record(&b, cases[i][0]);
		CHECK_STR(b.ptr, cases[i][1]);
	}
	pmbench_buf_release(&b);
}

TEST(escape_controls)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, c = PMBENCH_BUF_INIT;
	const char *hostile = "x\033]0;PWNED\007\033[31mred";

	CHECK_STR(escaped(&b, hostile, 0), "x\\x1b]0;PWNED\\x07\\x1b[31mred");
	/* Text in any script is kept; so is a backslash. */
	CHECK_STR(escaped(&b, "caf\xc3\xa9 \xe2\x96\x88 \xf0\x9f\x93\xa6 a\\b",
			  0),
		  "caf\xc3\xa9 \xe2\x96\x88 \xf0\x9f\x93\xa6 a\\b");
	CHECK_STR(escaped(&b, "a\nb\tc\rd\x7f", 0), "a\\x0ab\\x09c\\x0dd\\x7f");
	CHECK_STR(escaped(&b, "a\nb\tc\rd", PMBENCH_TEXT_LINES),
		  "a\nb\tc\\x0dd");
	/* C1 (U+009B is a CSI), bidi overrides, invalid UTF-8. */
	CHECK_STR(escaped(&b,
			  "a\xc2\x9b"
			  "b\xe2\x80\xae"
			  "c\x9b\xff",
			  0),
		  "a\\xc2\\x9bb\\xe2\\x80\\xaec\\x9b\\xff");
	/* Overlong, surrogate, beyond U+10FFFF, cut short. */
	CHECK_STR(escaped(&b, "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x96",
			  0),
		  "\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80\\xe2\\x96");
	/* Escaping twice is once. */
	escaped(&b, hostile, 0);
	pmbench_text_escape(&c, b.ptr, b.len, 0);
	CHECK_STR(c.ptr, b.ptr);
	/* A NUL inside the given length is escaped too. */
	pmbench_buf_reset(&b);
	pmbench_text_escape(&b, "a\0b", 3, 0);
	CHECK_STR(b.ptr, "a\\x00b");
	pmbench_buf_release(&b);
	pmbench_buf_release(&c);
}

TEST(escape_drops_ansi)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	/* deno's colours, a title, a cursor move, a charset switch. */
	CHECK_STR(escaped(&b,
			  "\033[0m\033[1m\033[31merror\033[0m: "
			  "\033]0;PWNED\007x\033]8;;http://h\033\\link"
			  "\033]8;;\033\\ \033[2K\033(Bok\0337",
			  PMBENCH_TEXT_NO_ANSI),
		  "error: xlink ok");
	/* An unfinished string ends at the line's end, not the text's. */
	CHECK_STR(escaped(&b, "a\033]0;title\nnext line\033",
			  PMBENCH_TEXT_NO_ANSI | PMBENCH_TEXT_LINES),
		  "a\nnext line");
	/* A control inside CSI aborts it and is escaped. */
	CHECK_STR(escaped(&b, "\033[3\001x", PMBENCH_TEXT_NO_ANSI), "\\x01x");
	/* Without the flag the same sequences are shown, escaped. */
	CHECK_STR(escaped(&b, "\033[31merror", 0), "\\x1b[31merror");
	pmbench_buf_release(&b);
}

TEST(clean_and_error_store)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *d;

	pmbench_text_clean(&b, "'https://a:pw@h/\033[31m'\n", 0);
	CHECK_STR(b.ptr, "'https://***@h/\\x1b[31m'\\x0a");
	d = pmbench_text_clean_dup("x\033y", PMBENCH_TEXT_LINES);
	CHECK_STR(d, "x\\x1by");
	free(d);
	CHECK(pmbench_text_clean_dup(NULL, 0) == NULL);

	/* Every stored message is clean, whoever formats it. */
	pmbench_error_set("cannot clone '%s': %s",
			  "https://alice:s3cretPASS@127.0.0.1:9/repo.git",
			  "no \033]0;PWNED\007");
	CHECK_STR(pmbench_error_last(),
		  "cannot clone 'https://***@127.0.0.1:9/repo.git': no "
		  "\\x1b]0;PWNED\\x07");
	pmbench_error_prefix("'%s'", "ghp_0123456789abcdefghijABCDEFGHIJklmn");
	CHECK_STR(pmbench_error_last(),
		  "'ghp_***': cannot clone 'https://***@127.0.0.1:9/repo.git': "
		  "no \\x1b]0;PWNED\\x07");
	/* A long message is cut at a character's start, not inside it. */
	pmbench_buf_reset(&b);
	for (int i = 0; i < 3000; i++)
		pmbench_buf_adds(&b, "\xc3\xa9");
	pmbench_error_set("%s", b.ptr);
	CHECK(strlen(pmbench_error_last()) < 2048);
	CHECK_INT(strlen(pmbench_error_last()) % 2, 0);
	pmbench_error_clear();
	pmbench_buf_release(&b);
}

static void keep_log(enum pmbench_log_level level, const char *msg,
		     void *payload)
{
	(void)level;
	pmbench_buf_adds(payload, msg);
}

static void keep_progress(const struct pmbench_progress *p, void *payload)
{
	pmbench_buf_addf(payload, "[%s|%s]", p->text, p->group ? p->group : "");
}

TEST(engine_log_is_clean)
{
	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_progress p;

	ctx.log = keep_log;
	ctx.progress = keep_progress;
	ctx.payload = &b;
	pmbench_ctx_warn(&ctx, "script '%s' of 'https://u:p@h/'", "a\033[2Jb");
	CHECK_STR(b.ptr, "script 'a\\x1b[2Jb' of 'https://***@h/'");
	pmbench_buf_reset(&b);
	pmbench_ctx_event(&ctx, "ran %s", "\033]0;t\007");
	memset(&p, 0, sizeof(p));
	p.kind = PMBENCH_PROGRESS_EVENT;
	p.group = "f\033[1m · install";
	pmbench_ctx_report(&ctx, &p, "x\ny");
	CHECK_STR(b.ptr, "[ran \\x1b]0;t\\x07|][x\\x0ay|f\\x1b[1m · install]");
	pmbench_buf_release(&b);
}

CHECK_MAIN(CASE(redact_userinfo), CASE(redact_tokens), CASE(redact_settings),
	   CASE(env_record), CASE(escape_controls), CASE(escape_drops_ansi),
	   CASE(clean_and_error_store), CASE(engine_log_is_clean))

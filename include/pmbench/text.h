#ifndef PMBENCH_TEXT_H
#define PMBENCH_TEXT_H

#include <stddef.h>

#include "pmbench/buf.h"
#include "pmbench/common.h"

/**
 * Text from users (manifests, result files, the command line) and from
 * the programs pmbench runs, made fit to print and to record: credentials
 * redacted, terminal controls escaped. The error store, the engine's log
 * and progress, the report documents and the result writer apply it, so
 * a caller formats messages as usual and never prints raw user bytes.
 * Every function here is pure and thread-safe.
 */

/** Flags of pmbench_text_escape() and pmbench_text_clean(). */
enum pmbench_text_flags {
	/** Keep '\n' and '\t' (several lines of text, not one line). */
	PMBENCH_TEXT_LINES = (1 << 0),
	/**
	 * Drop ANSI escape sequences (colours, cursor moves, titles) instead
	 * of escaping them: for output of a program that is quoted, such as
	 * deno's, which is coloured even off a terminal.
	 */
	PMBENCH_TEXT_NO_ANSI = (1 << 1),
};

/**
 * Append `s` to `out` with its credentials replaced by three stars: the
 * userinfo of a URL, that is of anything after "://" up to the last '@'
 * before a '/', '?' or '#' (`https://alice:pw@host/` becomes `https://`
 * stars `@host/`; git's transport_anonymize_url() drops it), the values
 * of secret query parameters of a URL (`token`, `access_token`,
 * `password`, `secret`, `sig`, `key`, ... by name), npm's `_authToken=`,
 * `_auth=` and `_password=` settings, `Bearer` tokens, and tokens with a
 * known prefix (GitHub `ghp_` and `github_pat_`, GitLab `glpat-`, npm
 * `npm_`), whose prefix is kept. Applying it twice changes nothing more.
 */
void pmbench_text_redact(struct pmbench_buf *out, const char *s);

/** pmbench_text_redact() into a new string (free() it); NULL gives NULL. */
char *pmbench_text_redact_dup(const char *s);

/** 1 if pmbench_text_redact() would change `s`, else 0. */
int pmbench_text_has_secret(const char *s);

/**
 * Append the variable `kv` ("NAME=VALUE", as `--env` gives it) to `out`
 * as a result or a report records it: with its value only when the value
 * cannot be a credential (empty, or one of 0, 1, true, false, yes, no,
 * on, off, none in any case), else as "NAME=***". Inherited variables
 * are recorded by name only, for the same reason: a value can hold a
 * registry token, whatever the variable is called.
 */
void pmbench_text_env_record(struct pmbench_buf *out, const char *kv);

/**
 * Append the `len` bytes of `s` to `out` so that a terminal shows them
 * and does nothing else: valid UTF-8 text is kept; C0 controls, DEL, C1
 * controls (U+0080 to U+009F), the bidirectional overrides and isolates
 * (U+202A to U+202E, U+2066 to U+2069) and bytes that are not valid
 * UTF-8 are written as `\xNN` per byte (a line feed as `\x0a`).
 * A backslash is kept as it is, so escaping twice changes nothing more.
 * `flags`: pmbench_text_flags.
 */
void pmbench_text_escape(struct pmbench_buf *out, const char *s, size_t len,
			 unsigned flags);

/**
 * The length of the valid UTF-8 character at `s` (at most `n` bytes, n >
 * 0), its code point in *cp; 0 if it is not one (an overlong form, a
 * surrogate, beyond U+10FFFF, cut short).
 */
size_t pmbench_text_utf8(const char *s, size_t n, unsigned *cp);

/**
 * pmbench_text_redact(), then pmbench_text_escape() with `flags`, again
 * until nothing changes: what user text becomes in a message. Cleaning
 * the result again changes nothing (the error store relies on it).
 */
void pmbench_text_clean(struct pmbench_buf *out, const char *s, unsigned flags);

/** pmbench_text_clean() into a new string (free() it); NULL gives NULL. */
char *pmbench_text_clean_dup(const char *s, unsigned flags);

/**
 * One step of dropping ANSI escape sequences from a byte stream: CSI
 * (`ESC [` ... final byte), OSC, DCS, SOS, PM and APC strings (ended by
 * BEL or `ESC \`), and the other two- and three-byte escapes. `*state`
 * starts at 0 and carries over between calls. Returns 1 if `ch` is text,
 * 0 if it belongs to a sequence. A line feed ends an unfinished sequence
 * and is text, so a broken sequence cannot swallow the lines after it.
 */
int pmbench_text_ansi_step(int *state, unsigned char ch);

#endif

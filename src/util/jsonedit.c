/*
 * Text-preserving JSON edits: a scanner that knows where each value and
 * member is in the text (byte offsets), and edits that splice new text
 * in at those offsets. No tree is built, so nothing is reformatted.
 */
#include "pmbench/common.h"

#include "pmbench/jsonedit.h"

/* Deeper nesting than any package.json has is refused. */
#define DEPTH_MAX 64

struct scan {
	const char *s;
	size_t i;
};

/* An object: its braces and the members the edit needs. */
struct object {
	size_t open, close;	   /* offsets of '{' and '}' */
	size_t members;		   /* how many */
	size_t first_key;	   /* offset of the first member's key */
	size_t last_end;	   /* end of the last member's value */
	size_t after_end;	   /* end of the value of member `after` */
	size_t sep_from, sep_to;   /* between the first key and its value */
	size_t found_start, found; /* the value of the key looked for */
	size_t found_end;
};

static void skip_ws(struct scan *c)
{
	while (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
	       c->s[c->i] == '\r')
		c->i++;
}

/* At '"': past the closing quote. */
static int skip_string(struct scan *c)
{
	if (c->s[c->i] != '"')
		return -1;
	for (c->i++; c->s[c->i] && c->s[c->i] != '"'; c->i++)
		if (c->s[c->i] == '\\' && c->s[c->i + 1])
			c->i++;
	if (c->s[c->i] != '"')
		return -1;
	c->i++;
	return 0;
}

static int skip_value(struct scan *c, int depth);

/* At '{' or '[': past the closing bracket. */
static int skip_container(struct scan *c, int depth)
{
	char close = c->s[c->i] == '{' ? '}' : ']';
	int first = 1;

	if (depth > DEPTH_MAX)
		return -1;
	c->i++;
	for (;;) {
		skip_ws(c);
		if (c->s[c->i] == close) {
			c->i++;
			return 0;
		}
		if (!first) {
			if (c->s[c->i] != ',')
				return -1;
			c->i++;
			skip_ws(c);
		}
		first = 0;
		if (close == '}') {
			if (skip_string(c) < 0)
				return -1;
			skip_ws(c);
			if (c->s[c->i] != ':')
				return -1;
			c->i++;
			skip_ws(c);
		}
		if (skip_value(c, depth + 1) < 0)
			return -1;
	}
}

static int skip_value(struct scan *c, int depth)
{
	size_t from = c->i;

	switch (c->s[c->i]) {
	case '"':
		return skip_string(c);
	case '{':
	case '[':
		return skip_container(c, depth);
	default:
		while (c->s[c->i] &&
		       strchr("-+.0123456789eEtrufalsn", c->s[c->i]))
			c->i++;
		return c->i > from ? 0 : -1;
	}
}

static int key_is(const struct scan *c, size_t from, size_t to, const char *key)
{
	/* [from, to) is the key with its quotes. */
	return to - from - 2 == strlen(key) &&
	       !memcmp(c->s + from + 1, key, to - from - 2);
}

/*
 * The object at c->i ('{'): its layout, and where the member `key` and
 * the member `after` (either may be NULL) end. Leaves c->i past it.
 */
static int scan_object(struct object *o, struct scan *c, const char *key,
		       const char *after)
{
	memset(o, 0, sizeof(*o));
	if (c->s[c->i] != '{')
		return -1;
	o->open = c->i++;
	for (;;) {
		size_t k0, k1, v0;

		skip_ws(c);
		if (c->s[c->i] == '}') {
			o->close = c->i++;
			return 0;
		}
		if (o->members) {
			if (c->s[c->i] != ',')
				return -1;
			c->i++;
			skip_ws(c);
		}
		k0 = c->i;
		if (skip_string(c) < 0)
			return -1;
		k1 = c->i;
		skip_ws(c);
		if (c->s[c->i] != ':')
			return -1;
		c->i++;
		skip_ws(c);
		v0 = c->i;
		if (skip_value(c, 1) < 0)
			return -1;
		if (!o->members++) {
			o->first_key = k0;
			o->sep_from = k1;
			o->sep_to = v0;
		}
		o->last_end = c->i;
		if (key && key_is(c, k0, k1, key)) {
			o->found = 1;
			o->found_start = v0;
			o->found_end = c->i;
		}
		if (after && key_is(c, k0, k1, after))
			o->after_end = c->i;
	}
}

/*
 * Walk `path` from the top: `*o` is the object that holds its last key
 * (whether that key is there or not). 1 when the whole path leads to
 * objects, 0 when a step is missing or no object, -1 when not JSON.
 */
static int walk(struct object *o, const char *json, const char *const *path,
		const char *after)
{
	struct scan c = { json, 0 };
	struct scan whole = { json, 0 };

	skip_ws(&whole);
	if (skip_value(&whole, 0) < 0)
		return -1;
	skip_ws(&whole);
	if (json[whole.i])
		return -1;
	skip_ws(&c);
	for (size_t d = 0; path[d]; d++) {
		if (json[c.i] != '{')
			return 0;
		if (scan_object(o, &c, path[d], path[d + 1] ? NULL : after) < 0)
			return -1;
		if (!path[d + 1])
			return 1;
		if (!o->found)
			return 0;
		c.i = o->found_start;
	}
	return 0;
}

int pmbench_json_find(const char *json, const char *const *path, size_t *start,
		      size_t *end)
{
	struct object o;
	int ret = walk(&o, json, path, NULL);

	if (ret < 0)
		return pmbench_error_setc(PMBENCH_EINVALID, "not JSON");
	if (!ret || !o.found)
		return 0;
	*start = o.found_start;
	*end = o.found_end;
	return 1;
}

/* The whitespace at the start of the line holding offset `at`. */
static void line_indent(struct pmbench_buf *out, const char *s, size_t at)
{
	size_t b = at;

	while (b > 0 && s[b - 1] != '\n')
		b--;
	pmbench_buf_add(out, s + b, strspn(s + b, " \t"));
}

/* The file's indentation unit: the first indented line's whitespace. */
static void indent_unit(struct pmbench_buf *out, const char *s)
{
	for (const char *l = strchr(s, '\n'); l; l = strchr(l + 1, '\n')) {
		size_t n = strspn(l + 1, " \t");

		if (n && l[1 + n] && l[1 + n] != '\n') {
			pmbench_buf_add(out, l + 1, n);
			return;
		}
	}
	pmbench_buf_adds(out, "  ");
}

/* The text that goes before the new member, and after its key. */
static void layout(struct pmbench_buf *lead, struct pmbench_buf *sep,
		   const struct object *o, const char *s)
{
	if (o->members) {
		/* From the '{' to the first key: "\n    ". */
		size_t b = o->first_key;

		while (b > o->open + 1 && s[b - 1] != '\n' && s[b - 1] != '{')
			b--;
		if (s[b - 1] == '\n')
			pmbench_buf_addch(lead, '\n');
		else
			pmbench_buf_addch(lead, ' ');
		pmbench_buf_add(lead, s + b, o->first_key - b);
		pmbench_buf_add(sep, s + o->sep_from, o->sep_to - o->sep_from);
		return;
	}
	pmbench_buf_addch(lead, '\n');
	line_indent(lead, s, o->open);
	indent_unit(lead, s);
	pmbench_buf_adds(sep, ": ");
}

/*
 * Write into `out` the text `s` with the member `key`: `value` added to
 * the object `o`, after its member `after` or its last one, laid out as
 * its first member is.
 */
static void add_member(struct pmbench_buf *out, const struct object *o,
		       const char *s, const char *key, const char *value)
{
	struct pmbench_buf lead = PMBENCH_BUF_INIT, sep = PMBENCH_BUF_INIT;
	size_t at = o->after_end ? o->after_end
		    : o->members ? o->last_end
				 : o->open + 1;

	layout(&lead, &sep, o, s);
	pmbench_buf_add(out, s, at);
	if (o->members)
		pmbench_buf_addch(out, ',');
	pmbench_buf_add(out, lead.ptr, lead.len);
	pmbench_json_quote(out, key);
	pmbench_buf_add(out, sep.ptr, sep.len);
	pmbench_buf_adds(out, value);
	if (!o->members) {
		/* The closing brace on a line of its own. */
		pmbench_buf_addch(out, '\n');
		line_indent(out, s, o->open);
		at = o->close;
	}
	pmbench_buf_adds(out, s + at);
	pmbench_buf_release(&lead);
	pmbench_buf_release(&sep);
}

int pmbench_json_set(struct pmbench_buf *json, const char *const *path,
		     const char *value, const char *after)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	const char *key = NULL;
	struct object o;
	int ret = walk(&o, json->ptr, path, after);

	for (size_t d = 0; path[d]; d++)
		key = path[d];
	if (ret <= 0 || !key)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  ret < 0 ? "not JSON"
						  : "no object to add '%s' to",
					  key ? key : "");
	if (o.found) {
		pmbench_buf_add(&out, json->ptr, o.found_start);
		pmbench_buf_adds(&out, value);
		pmbench_buf_adds(&out, json->ptr + o.found_end);
	} else {
		add_member(&out, &o, json->ptr, key, value);
	}
	pmbench_buf_reset(json);
	pmbench_buf_add(json, out.ptr, out.len);
	pmbench_buf_release(&out);
	return 0;
}

void pmbench_json_quote(struct pmbench_buf *out, const char *s)
{
	pmbench_buf_addch(out, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			pmbench_buf_addf(out, "\\%c", ch);
		else if (ch == '\n')
			pmbench_buf_adds(out, "\\n");
		else if (ch == '\t')
			pmbench_buf_adds(out, "\\t");
		else if (ch < 0x20)
			pmbench_buf_addf(out, "\\u%04x", ch);
		else
			pmbench_buf_addch(out, ch);
	}
	pmbench_buf_addch(out, '"');
}

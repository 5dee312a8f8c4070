/*
 * Package managers' configuration files, read only as far as which
 * settings they make (conf.h). Each format is a line reader: a line is
 * cut out (NULs read as spaces), its comment removed, and the format's
 * rule turns it into a key and a value. Malformed lines are skipped.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/buf.h"
#include "pmbench/conf.h"

/* Values and keys longer than this are cut (a list, a certificate). */
#define CONF_TEXT_MAX 200
#define YAML_DEPTH    8

void pmbench_conf_add(struct pmbench_conf *c, const char *key,
		      const char *value, unsigned line)
{
	struct pmbench_conf_entry *e;

	PMBENCH_ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	e = &c->v[c->nr++];
	e->key = pmbench_xstrndup(key, CONF_TEXT_MAX);
	e->value = pmbench_xstrndup(value, CONF_TEXT_MAX);
	e->line = line;
}

void pmbench_conf_release(struct pmbench_conf *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].key);
		free(c->v[i].value);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static int key_char(char c)
{
	c = (char)tolower((unsigned char)c);
	return c == '_' ? '-' : c;
}

int pmbench_conf_key_eq(const char *a, const char *b)
{
	while (*a == '_' && *b == '_') {
		a++;
		b++;
	}
	if (*a == '_' || *b == '_')
		return 0;
	for (; *a && *b; a++, b++)
		if (key_char(*a) != key_char(*b))
			return 0;
	return !*a && !*b;
}

const char *pmbench_conf_get(const struct pmbench_conf *c, const char *key)
{
	for (size_t i = c->nr; i-- > 0;)
		if (pmbench_conf_key_eq(c->v[i].key, key))
			return c->v[i].value;
	return NULL;
}

/* Trim blanks (and a CR) at both ends of `s`, in place; returns the start. */
static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Remove one pair of matching quotes around `s`, in place. */
static char *unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s[n - 1] = '\0';
		s++;
	}
	return s;
}

/*
 * Cut the comment starting at a `mark` that begins the line or follows a
 * blank, outside quotes (YAML's and TOML's rule).
 */
static void cut_comment(char *s, char mark)
{
	char quote = 0;

	for (char *p = s; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == mark &&
			   (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
	}
}

/* .npmrc: "key=value", "key[]=value", "[section]"; ; and # comments. */
static void ini_line(struct pmbench_conf *out, char *line, unsigned no,
		     struct pmbench_buf *section)
{
	char *eq, *key, *value = (char *)"true";
	size_t n;

	line = trim(line);
	if (!*line || *line == ';' || *line == '#')
		return;
	n = strlen(line);
	if (*line == '[' && line[n - 1] == ']') {
		pmbench_buf_reset(section);
		pmbench_buf_add(section, line + 1, n - 2);
		return;
	}
	eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		value = unquote(trim(eq + 1));
	}
	key = trim(line);
	n = strlen(key);
	if (n > 2 && !strcmp(key + n - 2, "[]"))
		key[n - 2] = '\0';
	key = unquote(key);
	if (!*key)
		return;
	if (section->len) {
		struct pmbench_buf k = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&k, "%s.%s", section->ptr, key);
		pmbench_conf_add(out, k.ptr, value, no);
		pmbench_buf_release(&k);
		return;
	}
	pmbench_conf_add(out, key, value, no);
}

/* The end of a word: a quoted one whole, else up to a blank. */
static char *word_end(char *s)
{
	if (*s == '"' || *s == '\'') {
		char *close = strchr(s + 1, *s);

		return close ? close + 1 : s + strlen(s);
	}
	return s + strcspn(s, " \t");
}

/* yarn 1's .yarnrc: `key value`, `"key" "value"`, `--flag value`. */
static void yarnrc_line(struct pmbench_conf *out, char *line, unsigned no)
{
	char *key, *end, *value;
	size_t n;

	line = trim(line);
	if (!*line || *line == '#')
		return;
	key = line;
	end = word_end(key);
	value = *end ? end + 1 : end;
	*end = '\0';
	key = unquote(key);
	n = strlen(key);
	if (n && key[n - 1] == ':')
		key[n - 1] = '\0';
	value = unquote(trim(value));
	if (*key)
		pmbench_conf_add(out, key, *value ? value : "true", no);
}

/* Where a YAML reader is: the mappings open above the current line. */
struct yaml_state {
	struct {
		size_t indent;
		char *key;
		long entry; /* its entry, once a list item gave it one */
	} open[YAML_DEPTH];
	size_t depth;
	size_t block; /* inside a block scalar: lines indented more */
	int in_block;
};

static void yaml_pop(struct yaml_state *y, size_t indent)
{
	while (y->depth && y->open[y->depth - 1].indent >= indent)
		free(y->open[--y->depth].key);
}

static void yaml_path(struct pmbench_buf *out, const struct yaml_state *y,
		      const char *key)
{
	pmbench_buf_reset(out);
	for (size_t i = 0; i < y->depth; i++)
		pmbench_buf_addf(out, "%s.", y->open[i].key);
	pmbench_buf_adds(out, key);
}

/* "- item" under the innermost open key: its value lists the items. */
static void yaml_item(struct pmbench_conf *out, struct yaml_state *y,
		      char *item, unsigned no)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	long *entry;
	char *v;

	if (!y->depth)
		return;
	entry = &y->open[y->depth - 1].entry;
	item = unquote(trim(item));
	if (*entry < 0) {
		y->depth--;
		yaml_path(&b, y, y->open[y->depth].key);
		y->depth++;
		pmbench_conf_add(out, b.ptr, item, no);
		*entry = (long)out->nr - 1;
	} else {
		v = out->v[*entry].value;
		pmbench_buf_addf(&b, "%s, %s", v, item);
		free(v);
		out->v[*entry].value = pmbench_xstrndup(b.ptr, CONF_TEXT_MAX);
	}
	pmbench_buf_release(&b);
}

static void yaml_open(struct yaml_state *y, size_t indent, const char *key)
{
	if (y->depth == YAML_DEPTH)
		return;
	y->open[y->depth].indent = indent;
	y->open[y->depth].key = pmbench_xstrdup(key);
	y->open[y->depth].entry = -1;
	y->depth++;
}

static void yaml_line(struct pmbench_conf *out, struct yaml_state *y,
		      char *line, unsigned no)
{
	size_t indent = strspn(line, " ");
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	char *colon, *key, *value;

	if (y->in_block && (indent > y->block || !*trim(line + indent)))
		return;
	y->in_block = 0;
	cut_comment(line, '#');
	line = trim(line);
	if (!*line || !strncmp(line, "---", 3) || !strncmp(line, "...", 3))
		return;
	if (line[0] == '-' && (line[1] == ' ' || !line[1])) {
		yaml_item(out, y, line + 1, no);
		return;
	}
	colon = strstr(line, ": ");
	if (!colon && line[strlen(line) - 1] == ':')
		colon = line + strlen(line) - 1;
	if (!colon)
		return;
	*colon = '\0';
	key = unquote(trim(line));
	value = trim(colon + 1);
	yaml_pop(y, indent);
	if (!*value) {
		yaml_open(y, indent, key);
	} else {
		yaml_path(&path, y, key);
		if (strchr("|>", value[0]) &&
		    strspn(value + 1, "+-0123456789") == strlen(value + 1)) {
			y->in_block = 1;
			y->block = indent;
		}
		pmbench_conf_add(out, path.ptr, unquote(value), no);
	}
	pmbench_buf_release(&path);
}

/* TOML: "[table]", "[[array]]", "key = value", dotted and quoted keys. */
static void toml_line(struct pmbench_conf *out, char *line, unsigned no,
		      struct pmbench_buf *table)
{
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	char *eq, *value;
	size_t n;

	cut_comment(line, '#');
	line = trim(line);
	n = strlen(line);
	if (!n)
		return;
	if (line[0] == '[' && line[n - 1] == ']') {
		size_t open = line[1] == '[' ? 2 : 1;

		line[n - open] = '\0';
		pmbench_buf_reset(table);
		pmbench_buf_adds(table, unquote(trim(line + open)));
		return;
	}
	eq = strchr(line, '=');
	if (!eq)
		return;
	*eq = '\0';
	value = unquote(trim(eq + 1));
	if (table->len)
		pmbench_buf_addf(&key, "%s.", table->ptr);
	pmbench_buf_adds(&key, unquote(trim(line)));
	if (*trim(line))
		pmbench_conf_add(out, key.ptr, value, no);
	pmbench_buf_release(&key);
}

void pmbench_conf_parse(struct pmbench_conf *out, enum pmbench_conf_format fmt,
			const char *text, size_t len)
{
	struct pmbench_buf line = PMBENCH_BUF_INIT, scope = PMBENCH_BUF_INIT;
	struct yaml_state y;
	unsigned no = 0;
	size_t i = 0;

	memset(&y, 0, sizeof(y));
	while (i < len) {
		size_t start = i;

		while (i < len && text[i] != '\n')
			i++;
		pmbench_buf_reset(&line);
		for (size_t k = start; k < i; k++)
			pmbench_buf_addch(&line, text[k] ? text[k] : ' ');
		i++;
		no++;
		if (fmt == PMBENCH_CONF_INI)
			ini_line(out, line.ptr, no, &scope);
		else if (fmt == PMBENCH_CONF_YARNRC)
			yarnrc_line(out, line.ptr, no);
		else if (fmt == PMBENCH_CONF_YAML)
			yaml_line(out, &y, line.ptr, no);
		else
			toml_line(out, line.ptr, no, &scope);
	}
	yaml_pop(&y, 0);
	pmbench_buf_release(&line);
	pmbench_buf_release(&scope);
}

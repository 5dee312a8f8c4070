/*
 * `pmbench help COMMAND` and the man pages, both written from the
 * command table (commands.c) and the option table (options.c): one text,
 * two renderings. The lists in the texts (PMs, formats, columns, tasks,
 * exit codes) come from the tables that own them, through placeholders.
 */
#include "pmbench/common.h"

#include "options.h"
#include "pmbench/format.h"
#include "pmbench/pm.h"
#include "pmbench/task.h"

#define WIDTH	   79 /* the last column a help line may fill */
#define OPT_COLUMN 24 /* where an option's help starts */

/* ---- Placeholders ------------------------------------------------------- */

static void ph_pms(struct pmbench_buf *out)
{
	pmbench_pm_join_names(out, ",", 0);
}

static void ph_formats(struct pmbench_buf *out)
{
	pmbench_format_names(out);
}

static void ph_columns(struct pmbench_buf *out)
{
	pmbench_format_column_names(out);
}

static void ph_extensions(struct pmbench_buf *out)
{
	for (size_t i = 0, n = 0; i < pmbench_formats_nr; i++)
		if (pmbench_formats[i].ext)
			pmbench_buf_addf(out, "%s%s", n++ ? ", " : "",
					 pmbench_formats[i].ext);
}

static void ph_tasks(struct pmbench_buf *out)
{
	pmbench_task_list(out, 0);
}

/* The tasks migrate takes for `flag`, "build, test or lint". */
static void migrate_tasks(struct pmbench_buf *out, unsigned flag)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		n += pmbench_tasks[i].flags & flag &&
		     !(pmbench_tasks[i].flags & PMBENCH_TASK_PER_SCENARIO);
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		if (!(pmbench_tasks[i].flags & flag) ||
		    pmbench_tasks[i].flags & PMBENCH_TASK_PER_SCENARIO)
			continue;
		k++;
		pmbench_buf_addf(out, "%s%s",
				 k == 1	  ? ""
				 : k == n ? " or "
					  : ", ",
				 pmbench_tasks[i].name);
	}
}

static void ph_parity_tasks(struct pmbench_buf *out)
{
	migrate_tasks(out, PMBENCH_TASK_MIGRATE_PARITY);
}

static void ph_timed_tasks(struct pmbench_buf *out)
{
	migrate_tasks(out, PMBENCH_TASK_MIGRATE_TIMED);
}

static void ph_task_table(struct pmbench_buf *out)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		pmbench_buf_addf(out, "%s  %-9s %s", i ? "\n" : "",
				 pmbench_tasks[i].name,
				 pmbench_tasks[i].summary);
}

static void ph_format_table(struct pmbench_buf *out)
{
	for (size_t i = 0; i < pmbench_formats_nr; i++)
		pmbench_buf_addf(out, "%s  %-10s %s", i ? "\n" : "",
				 pmbench_formats[i].name,
				 pmbench_formats[i].help);
}

static void ph_command_table(struct pmbench_buf *out)
{
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++)
		pmbench_buf_addf(out, "%s  %-10s %s", i ? "\n" : "",
				 pmbench_cli_commands[i].name,
				 pmbench_cli_commands[i].summary);
}

/* The exit codes, from the enum's list (cli.h). */
static void ph_exits(struct pmbench_buf *out)
{
#define PMBENCH_EXIT_ROW(name, code, meaning) { code, meaning },
	static const struct {
		int code;
		const char *meaning;
	} exits[] = { PMBENCH_EXITS(PMBENCH_EXIT_ROW) };
#undef PMBENCH_EXIT_ROW

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(exits); i++)
		pmbench_buf_addf(out, "%s%d %s", i ? ", " : "", exits[i].code,
				 exits[i].meaning);
}

static const struct {
	const char *name;
	void (*fn)(struct pmbench_buf *out);
} placeholders[] = {
	{ "columns", ph_columns },
	{ "command_table", ph_command_table },
	{ "exits", ph_exits },
	{ "extensions", ph_extensions },
	{ "format_table", ph_format_table },
	{ "formats", ph_formats },
	{ "parity_tasks", ph_parity_tasks },
	{ "pms", ph_pms },
	{ "task_table", ph_task_table },
	{ "tasks", ph_tasks },
	{ "timed_tasks", ph_timed_tasks },
};

void pmbench_cli_expand(struct pmbench_buf *out, const char *text)
{
	while (*text) {
		const char *open = strchr(text, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		size_t k = PMBENCH_ARRAY_SIZE(placeholders);

		if (!close) {
			pmbench_buf_adds(out, text);
			return;
		}
		pmbench_buf_add(out, text, (size_t)(open - text));
		for (k = 0; k < PMBENCH_ARRAY_SIZE(placeholders); k++)
			if (strlen(placeholders[k].name) ==
				    (size_t)(close - open - 1) &&
			    !strncmp(placeholders[k].name, open + 1,
				     (size_t)(close - open - 1)))
				break;
		if (k < PMBENCH_ARRAY_SIZE(placeholders)) {
			placeholders[k].fn(out);
			text = close + 1;
		} else {
			pmbench_buf_addch(out, '{');
			text = open + 1;
		}
	}
}

/* ---- Text --------------------------------------------------------------- */

/* Display columns of `s`'s first `n` bytes (UTF-8). */
static size_t columns(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

/*
 * Append the words of `text` wrapped at WIDTH; the cursor is at column
 * `col` and a new line starts at column `indent`.
 */
static void wrap(struct pmbench_buf *out, const char *text, size_t col,
		 size_t indent)
{
	int first = 1;

	while (*text) {
		size_t skip = strspn(text, " \n"), n, w;

		text += skip;
		n = strcspn(text, " \n");
		if (!n)
			break;
		w = columns(text, n);
		if (!first && col + 1 + w > WIDTH) {
			pmbench_buf_addf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			pmbench_buf_addch(out, ' ');
			col++;
		}
		pmbench_buf_add(out, text, n);
		col += w;
		text += n;
		first = 0;
	}
	pmbench_buf_addch(out, '\n');
}

/*
 * Walk the paragraphs of `raw` (placeholders filled in): `flow` gets each
 * run of ordinary lines joined into one text, `keep` each line that
 * starts with two spaces, and `gap` each blank line between paragraphs.
 */
struct text_walk {
	void (*flow)(struct pmbench_buf *out, const char *text);
	void (*keep)(struct pmbench_buf *out, const char *line);
	void (*gap)(struct pmbench_buf *out);
};

static void walk(struct pmbench_buf *out, const char *raw,
		 const struct text_walk *w)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, para = PMBENCH_BUF_INIT;
	struct pmbench_buf line = PMBENCH_BUF_INIT;
	const char *p;

	pmbench_cli_expand(&b, raw);
	for (p = b.ptr;; p++) {
		size_t n = strcspn(p, "\n");

		if (n && strncmp(p, "  ", 2)) {
			if (para.len)
				pmbench_buf_addch(&para, ' ');
			pmbench_buf_add(&para, p, n);
		} else {
			if (para.len)
				w->flow(out, para.ptr);
			pmbench_buf_reset(&para);
			pmbench_buf_reset(&line);
			pmbench_buf_add(&line, p, n);
			if (n)
				w->keep(out, line.ptr);
			else if (p[n])
				w->gap(out);
		}
		p += n;
		if (!*p)
			break;
	}
	if (para.len)
		w->flow(out, para.ptr);
	pmbench_buf_release(&b);
	pmbench_buf_release(&para);
	pmbench_buf_release(&line);
}

/* The rows of `c` to show: its own (`own`), or the bench options it
 * passes on. */
static int shown(const struct pmbench_cli_command *c,
		 const struct pmbench_option *o, int own)
{
	if (!pmbench_cli_takes(c, o))
		return 0;
	return own == !!(o->cmds & c->id);
}

/* "-o, --out FILE" */
static void label(struct pmbench_buf *out, const struct pmbench_option *o)
{
	if (o->letter)
		pmbench_buf_addf(out, "-%c, ", o->letter);
	pmbench_buf_addf(out, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

/* ---- pmbench help COMMAND ----------------------------------------------- */

static void text_flow(struct pmbench_buf *out, const char *text)
{
	wrap(out, text, 0, 0);
}

static void text_keep(struct pmbench_buf *out, const char *line)
{
	pmbench_buf_addf(out, "%s\n", line);
}

static void text_gap(struct pmbench_buf *out)
{
	pmbench_buf_addch(out, '\n');
}

static const struct text_walk text_walk = { text_flow, text_keep, text_gap };

static void help_options(struct pmbench_buf *out,
			 const struct pmbench_cli_command *c, int own)
{
	struct pmbench_buf l = PMBENCH_BUF_INIT, h = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];

		if (!shown(c, o, own))
			continue;
		pmbench_buf_reset(&l);
		pmbench_buf_reset(&h);
		label(&l, o);
		pmbench_cli_expand(&h, o->help);
		pmbench_buf_addf(out, "  %s", l.ptr);
		if (2 + l.len + 2 > OPT_COLUMN)
			pmbench_buf_addf(out, "\n%*s", OPT_COLUMN, "");
		else
			pmbench_buf_addf(out, "%*s",
					 (int)(OPT_COLUMN - 2 - l.len), "");
		wrap(out, h.ptr, OPT_COLUMN, OPT_COLUMN);
	}
	pmbench_buf_release(&l);
	pmbench_buf_release(&h);
}

void pmbench_cli_help(struct pmbench_buf *out,
		      const struct pmbench_cli_command *c)
{
	const char *prog = c->fn ? "pmbench " : "";

	pmbench_buf_addf(out, "usage: %s%s%s%s\n\n", prog, c->name,
			 *c->synopsis ? " " : "", c->synopsis);
	walk(out, c->description, &text_walk);
	pmbench_buf_adds(out, c->fn ? "\nOptions:\n" : "\nGlobal options:\n");
	help_options(out, c, 1);
	if (c->flags & CMDF_BENCH_OPTIONS) {
		pmbench_buf_adds(out, "\nBench options, passed to every "
				      "shard as given:\n");
		help_options(out, c, 0);
	}
	if (c->examples[0].what)
		pmbench_buf_adds(out, "\nExamples:\n");
	for (size_t i = 0;
	     i < PMBENCH_ARRAY_SIZE(c->examples) && c->examples[i].what; i++)
		pmbench_buf_addf(out, "  %s:\n    %s\n", c->examples[i].what,
				 c->examples[i].command);
	pmbench_buf_adds(out, "\nExit status: ");
	{
		struct pmbench_buf e = PMBENCH_BUF_INIT;

		pmbench_cli_expand(&e, c->exit_status);
		wrap(out, e.ptr, 13, 0);
		pmbench_buf_release(&e);
	}
}

/* ---- Man pages ---------------------------------------------------------- */

/* `s` for roff: hyphens as minus signs, other characters by name. */
static void man_escape(struct pmbench_buf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((p == (const unsigned char *)s || p[-1] == '\n') &&
		    (*p == '.' || *p == '\''))
			pmbench_buf_adds(out, "\\&");
		if (*p == '\\')
			pmbench_buf_adds(out, "\\e");
		else if (*p == '-')
			pmbench_buf_adds(out, "\\-");
		else if (*p < 0x80)
			pmbench_buf_addch(out, (char)*p);
		else if ((*p & 0xe0) == 0xc0 && p[1]) {
			pmbench_buf_addf(out, "\\[u%04X]",
					 (*p & 0x1f) << 6 | (p[1] & 0x3f));
			p++;
		} else if ((*p & 0xf0) == 0xe0 && p[1] && p[2]) {
			pmbench_buf_addf(out, "\\[u%04X]",
					 (*p & 0x0f) << 12 |
						 (p[1] & 0x3f) << 6 |
						 (p[2] & 0x3f));
			p += 2;
		}
	}
}

static void man_flow(struct pmbench_buf *out, const char *text)
{
	man_escape(out, text);
	pmbench_buf_addch(out, '\n');
}

static void man_keep(struct pmbench_buf *out, const char *line)
{
	pmbench_buf_adds(out, ".nf\n");
	man_escape(out, line);
	pmbench_buf_adds(out, "\n.fi\n");
}

static void man_gap(struct pmbench_buf *out)
{
	pmbench_buf_adds(out, ".PP\n");
}

static const struct text_walk man_walk = { man_flow, man_keep, man_gap };

/* "pmbench-bench", upper-cased when `upper`. */
static void page_name(struct pmbench_buf *out,
		      const struct pmbench_cli_command *c, int upper)
{
	size_t from = out->len;

	pmbench_buf_addf(out, "%s%s", c->fn ? "pmbench-" : "", c->name);
	for (size_t i = from; upper && i < out->len; i++)
		if (out->ptr[i] >= 'a' && out->ptr[i] <= 'z')
			out->ptr[i] = (char)(out->ptr[i] - 'a' + 'A');
}

static void man_options(struct pmbench_buf *out,
			const struct pmbench_cli_command *c, int own)
{
	struct pmbench_buf h = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];

		if (!shown(c, o, own))
			continue;
		pmbench_buf_adds(out, ".TP\n");
		if (o->letter)
			pmbench_buf_addf(out, "\\fB\\-%c\\fR, ", o->letter);
		pmbench_buf_adds(out, "\\fB");
		man_escape(out, "--");
		man_escape(out, o->name);
		pmbench_buf_adds(out, "\\fR");
		if (o->arg) {
			pmbench_buf_adds(out, " \\fI");
			man_escape(out, o->arg);
			pmbench_buf_adds(out, "\\fR");
		}
		pmbench_buf_reset(&h);
		pmbench_cli_expand(&h, o->help);
		pmbench_buf_addch(out, '\n');
		man_flow(out, h.ptr);
	}
	pmbench_buf_release(&h);
}

static void man_see_also(struct pmbench_buf *out,
			 const struct pmbench_cli_command *c)
{
	pmbench_buf_adds(out, ".SH \"SEE ALSO\"\n");
	if (c->fn) {
		pmbench_buf_adds(out, "\\fBpmbench\\fR(1)\n");
		return;
	}
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++) {
		pmbench_buf_adds(out, "\\fB");
		page_name(out, &pmbench_cli_commands[i], 0);
		pmbench_buf_addf(out, "\\fR(1)%s\n",
				 i + 1 < pmbench_cli_commands_nr ? "," : "");
	}
}

void pmbench_cli_man(struct pmbench_buf *out,
		     const struct pmbench_cli_command *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_adds(out, ".\\\" Written by pmbench-gendoc from "
			      "src/cli/commands.c and options.c: do not "
			      "edit.\n.TH ");
	page_name(&b, c, 1);
	man_escape(out, b.ptr);
	/* Left-aligned, unhyphenated: option names and paths stay whole. */
	pmbench_buf_addf(out,
			 " 1 \"\" \"pmbench %s\" \"pmbench manual\"\n"
			 ".nh\n.ad l\n.SH NAME\n",
			 PMBENCH_VERSION);
	pmbench_buf_reset(&b);
	page_name(&b, c, 0);
	pmbench_buf_addf(&b, " - %s", c->summary);
	man_flow(out, b.ptr);
	pmbench_buf_adds(out, ".SH SYNOPSIS\n.B pmbench");
	if (c->fn)
		pmbench_buf_addf(out, " %s", c->name);
	pmbench_buf_addch(out, '\n');
	if (*c->synopsis)
		man_flow(out, c->synopsis);
	pmbench_buf_adds(out, ".SH DESCRIPTION\n");
	walk(out, c->description, &man_walk);
	pmbench_buf_adds(out, ".SH OPTIONS\n");
	man_options(out, c, 1);
	if (c->flags & CMDF_BENCH_OPTIONS) {
		pmbench_buf_adds(out, ".SS \"Bench options, passed to every "
				      "shard as given\"\n");
		man_options(out, c, 0);
	}
	if (c->examples[0].what)
		pmbench_buf_adds(out, ".SH EXAMPLES\n");
	for (size_t i = 0;
	     i < PMBENCH_ARRAY_SIZE(c->examples) && c->examples[i].what; i++) {
		pmbench_buf_adds(out, ".PP\n");
		man_escape(out, c->examples[i].what);
		pmbench_buf_adds(out, ":\n.RS\n.nf\n\\fB");
		man_escape(out, c->examples[i].command);
		pmbench_buf_adds(out, "\\fR\n.fi\n.RE\n");
	}
	pmbench_buf_adds(out, ".SH \"EXIT STATUS\"\n");
	walk(out, c->exit_status, &man_walk);
	man_see_also(out, c);
	pmbench_buf_release(&b);
}

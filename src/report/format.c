/*
 * The output formats: one table of { name, writer }. Each writer renders
 * any document (doc.h), in its own file.
 */
#include "pmbench/common.h"

#include <strings.h>

#include "pmbench/format.h"
#include "internal.h"

const struct pmbench_format pmbench_formats[] = {
	{ "table", NULL, "the terminal table (default)", pmbench_fmt_text },
	{ "markdown", ".md",
	  "headings and pipe tables, for a README or a pull request",
	  pmbench_fmt_markdown },
	{ "csv", ".csv", "one row per record, RFC 4180, keys as the header",
	  pmbench_fmt_csv },
	{ "json", ".json",
	  "the data with raw numbers (a bench result: hyperfine's export)",
	  pmbench_fmt_json },
	{ "hyperfine", NULL,
	  "hyperfine's JSON export of the timed cells, for its scripts",
	  pmbench_fmt_hyperfine },
	{ "github-action-benchmark", NULL,
	  "github-action-benchmark's customSmallerIsBetter JSON: each timed "
	  "cell's figures (wall, work, --explain phases) with intervals",
	  pmbench_fmt_gab },
	{ "bencher", NULL,
	  "Bencher's metric format (BMF): a benchmark per timed cell, a "
	  "measure per figure, with its interval",
	  pmbench_fmt_bmf },
	{ "html", ".html",
	  "one self-contained page with SVG charts (no script, no network)",
	  pmbench_fmt_html },
	{ "svg", ".svg", "the charts alone, one standalone SVG image",
	  pmbench_fmt_svg },
};

const size_t pmbench_formats_nr = PMBENCH_ARRAY_SIZE(pmbench_formats);

void pmbench_format_names(struct pmbench_buf *out)
{
	for (size_t i = 0; i < pmbench_formats_nr; i++)
		pmbench_buf_addf(out, "%s%s",
				 !i			       ? ""
				 : i + 1 == pmbench_formats_nr ? " or "
							       : ", ",
				 pmbench_formats[i].name);
}

const struct pmbench_format *pmbench_format_get(const char *name)
{
	struct pmbench_buf names = PMBENCH_BUF_INIT;

	if (!strcmp(name, "md"))
		name = "markdown";
	for (size_t i = 0; i < pmbench_formats_nr; i++)
		if (!strcmp(pmbench_formats[i].name, name))
			return &pmbench_formats[i];
	pmbench_format_names(&names);
	pmbench_error_setc(PMBENCH_EINVALID,
			   "unknown report format '%s'; use %s", name,
			   names.ptr);
	pmbench_buf_release(&names);
	return NULL;
}

const struct pmbench_format *pmbench_format_for_path(const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		const char *ext = pmbench_formats[i].ext;
		size_t n = ext ? strlen(ext) : 0;

		if (n && len > n && !strcasecmp(path + len - n, ext))
			return &pmbench_formats[i];
	}
	if (len > 4 && !strcasecmp(path + len - 4, ".htm"))
		return pmbench_format_get("html");
	return NULL;
}

int pmbench_format_write(struct pmbench_buf *out,
			 const struct pmbench_format *f,
			 const struct pmbench_doc *doc)
{
	return f->write(out, doc);
}

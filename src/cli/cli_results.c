/*
 * Result files as the commands that read them take them: every kind
 * pmbench writes (bench, ci-cache, claim, migrate) is read as what it is
 * (resultfile.h), and a file a command does not take is one line naming
 * the file, what it is and which commands take it.
 */
#include "pmbench/common.h"

#include "cli.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/resultfile.h"

/* The commands that read result files, and the kinds each takes. */
static const struct reader {
	const char *cmd;
	unsigned takes;
} readers[] = {
	{ "report", PMBENCH_CLI_EVERY_KIND },
	{ "compare", PMBENCH_CLI_EVERY_KIND },
	{ "claim --from", PMBENCH_RESULT_BENCH | PMBENCH_RESULT_CLAIM |
				  PMBENCH_RESULT_MIGRATE },
	{ "history", PMBENCH_CLI_EVERY_KIND },
	{ "merge", PMBENCH_RESULT_BENCH | PMBENCH_RESULT_CICACHE |
			   PMBENCH_RESULT_CLAIM },
};

static const enum pmbench_result_kind kinds[] = {
	PMBENCH_RESULT_BENCH,
	PMBENCH_RESULT_CICACHE,
	PMBENCH_RESULT_CLAIM,
	PMBENCH_RESULT_MIGRATE,
};

/* "a, b and c" of the `n` words `w`. */
static void add_list(struct pmbench_buf *b, const char *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pmbench_buf_addf(b, "%s%s",
				 !i	      ? ""
				 : i + 1 == n ? " and "
					      : ", ",
				 w[i]);
}

/* "bench, claim and migrate results": the kinds of the mask `takes`. */
static void add_kinds(struct pmbench_buf *b, unsigned takes)
{
	const char *w[PMBENCH_ARRAY_SIZE(kinds)];
	size_t n = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(kinds); i++)
		if (takes & kinds[i])
			w[n++] = pmbench_result_kind_name(kinds[i]);
	add_list(b, w, n);
	pmbench_buf_adds(b, " results");
}

/* "report, compare and history read it": who takes `kind` but `cmd`. */
static void add_readers(struct pmbench_buf *b, unsigned kind, const char *cmd)
{
	const char *w[PMBENCH_ARRAY_SIZE(readers)];
	size_t n = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(readers); i++)
		if (readers[i].takes & kind && strcmp(readers[i].cmd, cmd))
			w[n++] = readers[i].cmd;
	add_list(b, w, n);
	pmbench_buf_adds(b, n == 1 ? " reads it" : " read it");
}

/* The one line for a file `cmd` does not take. */
static int refuse(const struct pmbench_result_file *f, const char *path,
		  const char *cmd, unsigned takes)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&b, "'%s' is %s; ", path, f->what);
	if (f->kind == PMBENCH_RESULT_NONE) {
		pmbench_buf_adds(&b, "report, compare, claim --from, history "
				     "and merge read the ");
		add_kinds(&b, PMBENCH_CLI_EVERY_KIND);
		pmbench_buf_adds(&b, " pmbench writes");
	} else {
		add_readers(&b, f->kind, cmd);
		pmbench_buf_addf(&b, ", %s takes ", cmd);
		add_kinds(&b, takes);
	}
	ret = pmbench_error_setc(PMBENCH_EINVALID, "%s", b.ptr);
	pmbench_buf_release(&b);
	return ret;
}

/* The one line for a folder given to `cmd`, which takes one file. */
static int folder_given(const char *path, const char *cmd, unsigned takes)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&b,
			 "'%s' is a folder; history reads a folder of "
			 "results, %s takes the files of ",
			 path, cmd);
	add_kinds(&b, takes);
	ret = pmbench_error_setc(PMBENCH_EINVALID, "%s", b.ptr);
	pmbench_buf_release(&b);
	return ret;
}

int pmbench_cli_history_folder(const char *path)
{
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = 0;

	/* A missing one is the history's to say. */
	if (!pmbench_fs_exists(path) || pmbench_fs_isdir(path))
		return 0;
	pmbench_buf_addf(&b, "'%s' is ", path);
	if (pmbench_result_file_read(&f, path) < 0 ||
	    f.kind == PMBENCH_RESULT_NONE) {
		pmbench_buf_addf(&b, "%s; history reads a folder of the ",
				 f.what ? f.what : "a file");
		add_kinds(&b, PMBENCH_CLI_EVERY_KIND);
		pmbench_buf_adds(&b, " pmbench writes");
	} else {
		pmbench_buf_addf(&b, "%s, not a folder; ", f.what);
		add_readers(&b, f.kind, "history");
		pmbench_buf_adds(&b, ", history reads a folder of results");
	}
	pmbench_error_clear();
	ret = pmbench_error_setc(PMBENCH_EINVALID, "%s", b.ptr);
	pmbench_buf_release(&b);
	pmbench_result_file_release(&f);
	return ret;
}

int pmbench_cli_read_file(struct pmbench_result_file *out, const char *path,
			  const char *cmd, unsigned takes)
{
	int ret = pmbench_fs_isdir(path) ? folder_given(path, cmd, takes)
					 : pmbench_result_file_read(out, path);
	int64_t when;

	if (!ret && !(out->kind & takes))
		ret = refuse(out, path, cmd, takes);
	/* A date that does not exist is said, not believed. */
	if (!ret && pmbench_result_created(&when, &out->result, path) < 0) {
		pmbench_cli_line(stderr, "pmbench: warning: %s",
				 pmbench_error_last());
		pmbench_error_clear();
	}
	if (!ret && !out->result.cells_nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s' holds no measurements (its "
					 "cells are empty): the run that wrote "
					 "it ended before measuring anything; "
					 "run it again",
					 path);
	if (ret < 0)
		pmbench_result_file_release(out);
	return ret;
}

int pmbench_cli_whole_migrate(const struct pmbench_result_file *f,
			      const char *path, const char *cmd)
{
	const char *by = f->result.pmbench_version;

	if (f->kind != PMBENCH_RESULT_MIGRATE || !f->lacks)
		return 0;
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "'%s' is a migrate result written by "
				  "pmbench %s (%s version %d), which lacks "
				  "what %s needs: %s; run migrate again "
				  "(claim --from and history read it as it "
				  "is)",
				  path, by ? by : "(unknown)",
				  PMBENCH_MIGRATE_SCHEMA, f->version, cmd,
				  f->lacks);
}

int pmbench_cli_read_cells(struct pmbench_result *out, const char *path,
			   const char *cmd, unsigned takes)
{
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	int ret = pmbench_cli_read_file(&f, path, cmd, takes);

	*out = f.result;
	f.result = init;
	pmbench_result_file_release(&f);
	return ret;
}

/*
 * Replay a corpus through a fuzz target without libFuzzer: every argument
 * is a file, or a folder whose files (not sub-folders) are fed in name
 * order to LLVMFuzzerTestOneInput(). This is what the fuzz_replay_<name>
 * CTest tests run over tests/fuzz/corpus/<name>/, in the normal build and
 * under ASan+UBSan, so that every input that once found a bug, or that
 * reaches a path worth keeping, is checked on every CI run without clang.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

/* Far above libFuzzer's default -max_len; the corpus stays small. */
#define INPUT_MAX (16u << 20)

static int replay_file(const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret = pmbench_fs_read(&text, path, INPUT_MAX);

	if (ret < 0) {
		fprintf(stderr, "replay: %s\n", pmbench_error_last());
		goto done;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)text.ptr, text.len);

done:
	pmbench_buf_release(&text);
	return ret;
}

/* Every regular file of `dir`, sorted by name so that runs repeat. */
static int list_dir(struct pmbench_strvec *out, const char *dir)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			pmbench_strvec_push(&names, de->d_name);
	closedir(d);
	pmbench_strvec_sort(&names, 0);
	for (size_t i = 0; i < names.nr; i++) {
		pmbench_buf_reset(&path);
		pmbench_buf_path(&path, dir, names.v[i]);
		if (pmbench_fs_isfile(path.ptr))
			pmbench_strvec_push(out, path.ptr);
	}
	pmbench_strvec_release(&names);
	pmbench_buf_release(&path);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmbench_strvec files = PMBENCH_STRVEC_INIT;
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS-DIR-OR-FILE...\n", argv[0]);
		return 129;
	}
	for (int i = 1; i < argc; i++) {
		if (pmbench_fs_isdir(argv[i])) {
			if (list_dir(&files, argv[i]) < 0)
				status = 1;
		} else {
			pmbench_strvec_push(&files, argv[i]);
		}
	}
	for (size_t i = 0; i < files.nr; i++)
		if (replay_file(files.v[i]) < 0)
			status = 1;
	/* An empty corpus is a wrong path, not a pass. */
	if (!files.nr) {
		fprintf(stderr, "replay: no input files\n");
		status = 1;
	}
	printf("replay: %zu inputs, %s\n", files.nr, status ? "errors" : "ok");
	pmbench_strvec_release(&files);
	return status;
}

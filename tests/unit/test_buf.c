#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/strvec.h"

TEST(buf_init_add)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK(b.ptr == pmbench_buf_empty);
	CHECK_STR(b.ptr, "");
	CHECK_INT(b.len, 0);
	pmbench_buf_add(&b, "", 0);
	CHECK(b.ptr == pmbench_buf_empty); /* nothing added, nothing taken */
	pmbench_buf_adds(&b, "ab");
	pmbench_buf_addch(&b, 'c');
	pmbench_buf_add(&b, "defXX", 3);
	CHECK_STR(b.ptr, "abcdef");
	CHECK_INT(b.len, 6);
	CHECK(b.alloc > b.len);
	pmbench_buf_setlen(&b, 2);
	CHECK_STR(b.ptr, "ab");
	pmbench_buf_reset(&b);
	CHECK_STR(b.ptr, "");
	CHECK_INT(b.len, 0);
	pmbench_buf_addch(&b, '\0');
	CHECK_INT(b.len, 1);
	pmbench_buf_release(&b);
	CHECK(b.ptr == pmbench_buf_empty);
	CHECK_INT(b.len, 0);
	CHECK_INT(b.alloc, 0);
	pmbench_buf_release(&b); /* twice is fine */
	CHECK_STR(pmbench_buf_empty, "");
}

TEST(buf_addf_growth)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	char big[3001];
	char piece[16];

	/* Many small appends far past 1 KB. */
	for (int i = 0; i < 500; i++) {
		pmbench_buf_addf(&b, "%04d,", i);
		snprintf(piece, sizeof(piece), "%04d,", i);
		pmbench_buf_adds(&want, piece);
	}
	CHECK_INT(b.len, 2500);
	CHECK_INT(strlen(b.ptr), 2500);
	CHECK_STR(b.ptr, want.ptr);
	CHECK(!strncmp(b.ptr, "0000,0001,", 10));
	CHECK(!strcmp(b.ptr + 2495, "0499,"));

	/* One append bigger than any earlier allocation. */
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "<%s>%d", big, 42);
	CHECK_INT(b.len, 3000 + 4);
	CHECK(b.ptr[0] == '<' && b.ptr[3001] == '>');
	CHECK_STR(b.ptr + 3002, "42");
	pmbench_buf_addf(&b, "%s", "");
	CHECK_INT(b.len, 3004);

	pmbench_buf_release(&b);
	pmbench_buf_release(&want);
}

TEST(buf_detach)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *s;

	pmbench_buf_adds(&b, "owned");
	s = pmbench_buf_detach(&b);
	CHECK_STR(s, "owned");
	CHECK(b.ptr == pmbench_buf_empty);
	CHECK_INT(b.len, 0);
	CHECK_INT(b.alloc, 0);
	/* The buffer is usable again and does not share the string. */
	pmbench_buf_adds(&b, "next");
	CHECK(b.ptr != s);
	CHECK_STR(s, "owned");
	free(s);
	pmbench_buf_release(&b);

	/* Detaching an empty buffer still hands over a string to free. */
	s = pmbench_buf_detach(&b);
	CHECK(s != NULL);
	CHECK(s != pmbench_buf_empty);
	CHECK_STR(s, "");
	free(s);
}

TEST(buf_rtrim)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_rtrim(&b);
	CHECK_INT(b.len, 0);
	pmbench_buf_adds(&b, "  v1.2.3 \t\r\n\n");
	pmbench_buf_rtrim(&b);
	CHECK_STR(b.ptr, "  v1.2.3");
	CHECK_INT(b.len, 8);
	pmbench_buf_reset(&b);
	pmbench_buf_adds(&b, " \n\t ");
	pmbench_buf_rtrim(&b);
	CHECK_STR(b.ptr, "");
	CHECK_INT(b.len, 0);
	pmbench_buf_adds(&b, "a b");
	pmbench_buf_rtrim(&b);
	CHECK_STR(b.ptr, "a b");
	pmbench_buf_release(&b);
}

TEST(buf_path)
{
	static const struct {
		const char *dir, *name, *want;
	} cases[] = {
		{ "a", "b", "a/b" },	     { "a/", "b", "a/b" },
		{ "a", "/b", "a/b" },	     { "a/", "/b", "a/b" },
		{ "/", "b", "/b" },	     { "", "b", "b" },
		{ "a/b", "c/d", "a/b/c/d" },
	};
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		pmbench_buf_reset(&b);
		pmbench_buf_path(&b, cases[i].dir, cases[i].name);
		CHECK_STR(b.ptr, cases[i].want);
	}
	/* Joining appends to what is already there. */
	pmbench_buf_reset(&b);
	pmbench_buf_adds(&b, "x:");
	pmbench_buf_path(&b, "dir", "file");
	CHECK_STR(b.ptr, "x:dir/file");
	pmbench_buf_release(&b);
}

TEST(buf_add_clock)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
		{ -3, "0:00" },	     { 0, "0:00" },	  { 0.4, "0:00" },
		{ 0.5, "0:01" },     { 65, "1:05" },	  { 3599.4, "59:59" },
		{ 3600, "1:00:00" }, { 3723, "1:02:03" },
	};
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		pmbench_buf_reset(&b);
		pmbench_buf_adds(&b, "t=");
		pmbench_buf_add_clock(&b, cases[i].s);
		CHECK_STR(b.ptr + 2, cases[i].want);
	}
	/* Its unit, from the clock's own rounding. */
	pmbench_buf_reset(&b);
	pmbench_buf_add_clock_unit(&b, 3599.4);
	CHECK_STR(b.ptr, "59:59 (m:ss)");
	pmbench_buf_reset(&b);
	pmbench_buf_add_clock_unit(&b, 3599.6);
	CHECK_STR(b.ptr, "1:00:00 (h:mm:ss)");
	pmbench_buf_release(&b);
}

TEST(strvec_push_pop_find)
{
	struct pmbench_strvec sv = PMBENCH_STRVEC_INIT;
	static const char *const more[] = { "c", "d", NULL };
	char mine[] = "a";
	const char *copy;

	CHECK_INT(sv.nr, 0);
	CHECK(sv.v[0] == NULL);
	CHECK_INT(pmbench_strvec_find(&sv, "a"), -1);
	pmbench_strvec_pop(&sv); /* popping nothing is fine */
	CHECK_INT(sv.nr, 0);

	copy = pmbench_strvec_push(&sv, mine);
	CHECK(copy != mine);
	mine[0] = 'z';
	CHECK_STR(sv.v[0], "a");
	CHECK_STR(pmbench_strvec_pushf(&sv, "b%d", 2), "b2");
	pmbench_strvec_pushv(&sv, more);
	pmbench_strvec_pushv(&sv, NULL);
	CHECK_INT(sv.nr, 4);
	CHECK_STR(sv.v[1], "b2");
	CHECK_STR(sv.v[3], "d");
	CHECK(sv.v[4] == NULL);
	CHECK_INT(pmbench_strvec_find(&sv, "a"), 0);
	CHECK_INT(pmbench_strvec_find(&sv, "d"), 3);
	CHECK_INT(pmbench_strvec_find(&sv, "b"), -1);

	pmbench_strvec_pop(&sv);
	CHECK_INT(sv.nr, 3);
	CHECK(sv.v[3] == NULL);
	CHECK_INT(pmbench_strvec_find(&sv, "d"), -1);

	/* Growth past the first allocation keeps the terminator. */
	for (int i = 0; i < 100; i++)
		pmbench_strvec_pushf(&sv, "n%d", i);
	CHECK_INT(sv.nr, 103);
	CHECK_STR(sv.v[102], "n99");
	CHECK(sv.v[103] == NULL);
	CHECK_INT(pmbench_strvec_find(&sv, "n50"), 53);

	pmbench_strvec_release(&sv);
	CHECK_INT(sv.nr, 0);
	CHECK(sv.v == pmbench_strvec_empty);
	CHECK(sv.v[0] == NULL);
	pmbench_strvec_release(&sv);
}

TEST(strvec_split_join)
{
	struct pmbench_strvec sv = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_strvec_split(&sv, ",a,,bc,d,", ',');
	CHECK_INT(sv.nr, 3);
	CHECK_STR(sv.v[0], "a");
	CHECK_STR(sv.v[1], "bc");
	CHECK_STR(sv.v[2], "d");
	CHECK(sv.v[3] == NULL);
	pmbench_strvec_join(&b, &sv, ", ");
	CHECK_STR(b.ptr, "a, bc, d");

	/* Split appends; join appends to the buffer. */
	pmbench_strvec_split(&sv, "e", ',');
	pmbench_strvec_split(&sv, "", ',');
	pmbench_strvec_split(&sv, NULL, ',');
	pmbench_strvec_split(&sv, ",,,", ',');
	CHECK_INT(sv.nr, 4);
	pmbench_buf_adds(&b, " | ");
	pmbench_strvec_join(&b, &sv, "");
	CHECK_STR(b.ptr, "a, bc, d | abcde");
	pmbench_strvec_release(&sv);

	/* Joining nothing adds nothing; one element has no separator. */
	pmbench_buf_reset(&b);
	pmbench_strvec_join(&b, &sv, "/");
	CHECK_STR(b.ptr, "");
	pmbench_strvec_split(&sv, "/usr/bin:/bin", ':');
	CHECK_INT(sv.nr, 2);
	pmbench_strvec_pop(&sv);
	pmbench_strvec_join(&b, &sv, ":");
	CHECK_STR(b.ptr, "/usr/bin");

	pmbench_strvec_release(&sv);
	pmbench_buf_release(&b);
}

CHECK_MAIN(CASE(buf_init_add), CASE(buf_addf_growth), CASE(buf_detach),
	   CASE(buf_rtrim), CASE(buf_path), CASE(buf_add_clock),
	   CASE(strvec_push_pop_find), CASE(strvec_split_join))

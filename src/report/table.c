#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/report.h"

/* The terminal table is the report's table format (report.c). */
void pmbench_table_print(FILE *out, const struct pmbench_result *r)
{
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_init(&rep, r);
	pmbench_report_write(&b, &rep, PMBENCH_REPORT_TABLE);
	fputs(b.ptr, out);
	pmbench_report_release(&rep);
	pmbench_buf_release(&b);
}

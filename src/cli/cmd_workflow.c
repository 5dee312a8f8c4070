#include "pmbench/common.h"
#include "cli.h"
int cmd_workflow(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}

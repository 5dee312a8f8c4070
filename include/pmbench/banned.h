#ifndef PMBENCH_BANNED_H
#define PMBENCH_BANNED_H

/*
 * Functions that are too easy to misuse. Each use becomes a compile error
 * that names the reason; use pmbench_buf, snprintf or strtol instead.
 */
#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef system
#define system(c) BANNED(system)
#undef popen
#define popen(c, m) BANNED(popen)

#endif

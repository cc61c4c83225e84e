/* cmd.c - a command dispatcher: words compared with strcmp/strncmp; the
 * error is "del" of the key "root". */
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    char line[16];
    int n;
    for (n = 0; n < 15; n++) {
        line[n] = __VERIFIER_nondet_char();
        if (!line[n])
            break;
    }
    line[n] = 0;
    char *sp = strchr(line, ' ');
    if (!sp)
        return strcmp(line, "quit") == 0 ? 9 : 1;
    *sp = 0;
    const char *arg = sp + 1;
    if (strcmp(line, "get") == 0)
        return strlen(arg) > 3 ? 2 : 3;
    if (strcmp(line, "put") == 0)
        return strncmp(arg, "tmp", 3) == 0 ? 4 : 5;
    if (strcmp(line, "del") == 0) {
        if (strcmp(arg, "root") == 0)
            reach_error();
        return 6;
    }
    return 7;
}

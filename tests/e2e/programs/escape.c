/* escape.c - a program that writes files next to it and in a
 * subdirectory it changes into, forks, and leaves a background process
 * behind (system() with '&', which does not go through fork()).  Under
 * ctestgen run and replay none of it may outlive the test or land outside
 * the output directory. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);

static void touch(const char *name)
{
    FILE *f = fopen(name, "w");
    if (f) {
        fputs("written by escape.c\n", f);
        fclose(f);
    }
}

int main(void)
{
    int n = __VERIFIER_nondet_int();
    touch("ctg-escape-here.txt");
    mkdir("ctg-escape-dir", 0755);
    if (chdir("ctg-escape-dir") == 0)
        touch("ctg-escape-sub.txt");
    for (int i = 0; i < 600; i++)
        if (fork() <= 0)
            break;
    if (n == 42) {
        int rc = system("sleep 31.4159 &");
        (void)rc;
    }
    return n > 10;
}

/*
 * filter_helper.c - the filter helper that kharness_filter writes after
 * the program (src/search/bounded/kharness.c): it reads length-prefixed
 * strings on fd 0, calls the filter on each in a child, and answers one
 * byte (1: accepted) on fd 1.  Not compiled on its own: the generated file
 * defines before it
 *   CTG_F_FILTER   the filter function, int f(const char *),
 *   CTG_F_ALARM_S  seconds a call may take,
 * and ctg_io (helper_io.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int in = dup(0), out = dup(1), null = open("/dev/null", O_RDWR);
    dup2(null, 0), dup2(null, 1);
    uint32_t len;
    while (ctg_io(in, &len, sizeof len, 0)) {
        char *s = (char *)malloc((size_t)len + 1);
        if (!s || !ctg_io(in, s, len, 0))
            return 3;
        s[len] = 0;
        pid_t pid = fork();
        if (pid < 0)
            return 4;
        if (pid == 0) {
            alarm(CTG_F_ALARM_S);
            _exit(CTG_F_FILTER(s) ? 1 : 0);
        }
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        free(s);
        unsigned char r = WIFEXITED(st) && WEXITSTATUS(st) == 1;
        if (!ctg_io(out, &r, 1, 1))
            return 0;
    }
    return 0;
}

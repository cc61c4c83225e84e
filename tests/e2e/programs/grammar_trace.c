/* Writes every input it is given to a new file $TRACE_DIR/00000, 00001, ...
 * (in the order of execution), so a test can check which strings a grammar
 * run produced and in which order. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = getenv("TRACE_DIR");
    if (!dir)
        return 0;
    char path[4096];
    for (int i = 0; i < 100000; i++) {
        snprintf(path, sizeof path, "%s/%05d", dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            if (write(fd, data, size) != (ssize_t)size)
                abort();
            close(fd);
            return 0;
        }
    }
    return 0;
}

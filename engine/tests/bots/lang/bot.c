/* Sends half of every garrison above 1 to the first neighbour of each owned fort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 512
static char name[MAX][64], owner[MAX][64], ra[MAX * 4][64], rb[MAX * 4][64];
static long garrison[MAX];

int main(int argc, char **argv) {
    const char *me = argv[argc - 1];
    char line[1024];
    for (;;) {
        long nf, nr, nm, x, y;
        if (!fgets(line, sizeof line, stdin)) return 0;
        nf = strtol(line, NULL, 10);
        for (long i = 0; i < nf; i++) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            sscanf(line, "%63s %ld %ld %63s %ld", name[i], &x, &y, owner[i], &garrison[i]);
        }
        if (!fgets(line, sizeof line, stdin)) return 0;
        nr = strtol(line, NULL, 10);
        for (long i = 0; i < nr; i++) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            sscanf(line, "%63s %63s", ra[i], rb[i]);
        }
        if (!fgets(line, sizeof line, stdin)) return 0;
        nm = strtol(line, NULL, 10);
        for (long i = 0; i < nm; i++)
            if (!fgets(line, sizeof line, stdin)) return 0;
        char out[65536];
        int len = 0, count = 0;
        for (long i = 0; i < nf; i++) {
            if (strcmp(owner[i], me) != 0 || garrison[i] < 2) continue;
            for (long r = 0; r < nr; r++) {
                const char *to = strcmp(ra[r], name[i]) == 0 ? rb[r] : strcmp(rb[r], name[i]) == 0 ? ra[r] : NULL;
                if (to) {
                    len += snprintf(out + len, sizeof out - len, "%s %s %ld\n", name[i], to, garrison[i] / 2);
                    count++;
                    break;
                }
            }
        }
        printf("%d commands:\n%s", count, out);
        fflush(stdout);
    }
}

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A plain main() for the fuzz targets where libFuzzer is not available
// (gcc, or ThreadSanitizer): runs LLVMFuzzerInitialize once, then
// LLVMFuzzerTestOneInput on every file named on the command line or found
// in a folder named there (the seed corpus), and fails if there was none.
// A broken invariant aborts, as under libFuzzer.

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf != NULL && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        return -1;
    }
    // An exact-size copy, so that a read past the input is caught.
    uint8_t *exact = malloc(len > 0 ? len : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int run_path(const char *path, int *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such file or folder: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        return -1;
    }
    struct dirent *e;
    int ret = 0;
    while (ret == 0 && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char child[4096];
        snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        ret = run_path(child, count);
    }
    closedir(dir);
    return ret;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int count = 0;
    for (int i = 1; i < argc; i++) {
        if (run_path(argv[i], &count) != 0) {
            return 1;
        }
    }
    printf("%s: replayed %d inputs\n", argv[0], count);
    return count > 0 ? 0 : 1;
}

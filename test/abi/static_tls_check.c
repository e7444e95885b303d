// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// static_tls_check LIB...: reads each ELF shared object's PT_TLS segment and
// DT_FLAGS, and fails (exit status 1) if any needs more than 64 bytes of
// static TLS. A library needs static TLS when it is marked DF_STATIC_TLS
// (it has initial-exec accesses): then glibc must place its whole TLS block
// in the small static surplus when it is dlopen()ed. Without the flag its
// TLS is allocated on demand and needs none. See utils/util_thread.h.

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 64

typedef struct tls_info_t {
    uint64_t tls_size; // PT_TLS p_memsz, rounded up to p_align
    bool static_tls;   // DF_STATIC_TLS in DT_FLAGS
    bool has_tls;
} tls_info_t;

static bool read_at(FILE *f, long offset, void *buf, size_t size) {
    return fseek(f, offset, SEEK_SET) == 0 && fread(buf, 1, size, f) == size;
}

// 0, or an error message.
static const char *inspect(const char *path, tls_info_t *out) {
    memset(out, 0, sizeof(*out));
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return "cannot open";
    }
    const char *err = NULL;
    Elf64_Ehdr eh;
    if (!read_at(f, 0, &eh, sizeof(eh)) ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_phentsize != sizeof(Elf64_Phdr)) {
        err = "not a 64-bit ELF file";
        goto out;
    }
    Elf64_Phdr dynamic = {0};
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (!read_at(f, (long)(eh.e_phoff + i * sizeof(ph)), &ph, sizeof(ph))) {
            err = "truncated program headers";
            goto out;
        }
        if (ph.p_type == PT_TLS) {
            uint64_t align = ph.p_align > 0 ? ph.p_align : 1;
            out->tls_size = (ph.p_memsz + align - 1) / align * align;
            out->has_tls = true;
        } else if (ph.p_type == PT_DYNAMIC) {
            dynamic = ph;
        }
    }
    for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= dynamic.p_filesz;
         off += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        if (!read_at(f, (long)(dynamic.p_offset + off), &d, sizeof(d))) {
            err = "truncated dynamic section";
            goto out;
        }
        if (d.d_tag == DT_NULL) {
            break;
        }
        if (d.d_tag == DT_FLAGS && (d.d_un.d_val & DF_STATIC_TLS) != 0) {
            out->static_tls = true;
        }
    }
    if (dynamic.p_type != PT_DYNAMIC) {
        err = "no dynamic section: not a shared object";
    }
out:
    fclose(f);
    return err;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIB...\n", argv[0]);
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        tls_info_t info;
        const char *err = inspect(argv[i], &info);
        if (err != NULL) {
            printf("%s: %s\n", argv[i], err);
            status = 1;
            continue;
        }
        uint64_t need = info.static_tls ? info.tls_size : 0;
        bool ok = need <= LIMIT;
        printf("%s: PT_TLS %llu bytes, %s: %llu bytes of static TLS (limit "
               "%d): %s\n",
               argv[i], (unsigned long long)info.tls_size,
               info.static_tls ? "DF_STATIC_TLS" : "no DF_STATIC_TLS",
               (unsigned long long)need, LIMIT, ok ? "ok" : "TOO MUCH");
        if (!ok) {
            status = 1;
        }
    }
    return status;
}

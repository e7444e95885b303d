// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC in the memory mode the environment selects: handle packing, export
// and import in one process and across a fork/exec pair, validity after the
// exporter frees, and the fd the driver owns.

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c_test.h"
#include "mock_control.h"
#include "mock_test_util.h"
#include "test_child.h"
#include "test_foreign_file.h"

static bool ipc_capable(void) {
    return umf_mock_config()->memory != UMF_MOCK_MEMORY_MALLOC;
}

static bool fd_open(int fd) {
    return fcntl(fd, F_GETFD) >= 0;
}

UMF_C_TEST(MockIpc, PackUnpack) {
    if (!test_core_init()) {
        return;
    }
    umf_mock_ipc_desc_t d = {.fd = 17,
                             .pid = 1234,
                             .start_time = 555,
                             .file_ino = 4242,
                             .offset = 8192,
                             .size = 100,
                             .id = 99,
                             .arena_order = 10};
    unsigned char h[UMF_MOCK_IPC_HANDLE_BYTES];
    umf_mock_ipc_pack(&d, h);
    int fd;
    memcpy(&fd, h, sizeof(fd));
    UMF_EXPECT_EQ(fd, 17); // the fd comes first, as in a real driver
    umf_mock_ipc_desc_t out;
    UMF_ASSERT_EQ(umf_mock_ipc_unpack(h, &out), UMF_MOCK_OK);
    UMF_EXPECT_EQ(out.fd, 17);
    UMF_EXPECT_EQ(out.pid, 1234);
    UMF_EXPECT_EQ(out.start_time, 555);
    UMF_EXPECT_EQ(out.file_ino, 4242);
    UMF_EXPECT_EQ(out.offset, 8192);
    UMF_EXPECT_EQ(out.size, 100);
    UMF_EXPECT_EQ(out.id, 99);
    UMF_EXPECT_EQ(out.arena_order, 10);
    UMF_EXPECT_EQ(out.pidfs_ino, 0);
    // With a pidfd inode, the handle names the exporter by it.
    umf_mock_ipc_desc_t by_inode = d;
    by_inode.pidfs_ino = 31337;
    unsigned char hi[UMF_MOCK_IPC_HANDLE_BYTES];
    umf_mock_ipc_pack(&by_inode, hi);
    UMF_ASSERT_EQ(umf_mock_ipc_unpack(hi, &out), UMF_MOCK_OK);
    UMF_EXPECT_EQ(out.pidfs_ino, 31337);
    UMF_EXPECT_EQ(out.start_time, 0);
    hi[14] |= 2; // an unknown flag
    UMF_EXPECT_EQ(umf_mock_ipc_unpack(hi, &out), UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_ASSERT_EQ(umf_mock_ipc_unpack(h, &out), UMF_MOCK_OK);
    // Derived: whole pages, and the slot after the arena's 2^10 data pages.
    UMF_EXPECT_EQ(out.mapped, umf_mock_page_size);
    UMF_EXPECT_EQ(out.slot_offset,
                  (umf_mock_page_size << 10) + 8192 / umf_mock_page_size * 8);
    // A consumer writes its own fd over the first bytes.
    int mine = 3;
    memcpy(h, &mine, sizeof(mine));
    UMF_ASSERT_EQ(umf_mock_ipc_unpack(h, &out), UMF_MOCK_OK);
    UMF_EXPECT_EQ(out.fd, 3);
    // Any other byte changed, or garbage, is rejected.
    for (size_t i = 4; i < UMF_MOCK_IPC_HANDLE_BYTES; i++) {
        unsigned char bad[UMF_MOCK_IPC_HANDLE_BYTES];
        memcpy(bad, h, sizeof(bad));
        bad[i] ^= 0x40;
        UMF_EXPECT_EQ(umf_mock_ipc_unpack(bad, &out),
                      UMF_MOCK_ERR_INVALID_ARGUMENT);
    }
    unsigned char zero[UMF_MOCK_IPC_HANDLE_BYTES] = {0};
    UMF_EXPECT_EQ(umf_mock_ipc_unpack(zero, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_ipc_unpack(NULL, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // Fields that make no sense are rejected even with a good checksum.
    umf_mock_ipc_desc_t odd[6];
    for (int i = 0; i < 6; i++) {
        odd[i] = d;
    }
    odd[0].offset = 100;                       // not whole pages
    odd[1].size = 0;                           // nothing
    odd[2].file_ino = 0;                       // no file
    odd[3].offset = umf_mock_page_size << 10;  // past the arena's data
    odd[4].arena_order = 40;                   // no such arena
    odd[5].size = UMF_MOCK_MAX_ALLOC_SIZE + 1; // no such allocation
    for (int i = 0; i < 6; i++) {
        umf_mock_ipc_pack(&odd[i], h);
        UMF_EXPECT_EQ(umf_mock_ipc_unpack(h, &out),
                      UMF_MOCK_ERR_INVALID_ARGUMENT);
    }
}

UMF_C_TEST(MockIpc, ExportRules) {
    if (!test_core_init()) {
        return;
    }
    void *host, *dev;
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_HOST, -1, 100, 0, 0, 0, &host),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 3 * 4096, 0, 0, 0, &dev),
        UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_ipc_export(host, false, &d, NULL),
                  UMF_MOCK_ERR_WRONG_KIND);
    int on_stack;
    UMF_EXPECT_EQ(umf_mock_ipc_export(&on_stack, false, &d, NULL),
                  UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_ipc_export(dev, false, NULL, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    if (!ipc_capable()) {
        UMF_EXPECT_EQ(umf_mock_ipc_export(dev, false, &d, NULL),
                      UMF_MOCK_ERR_NOT_SUPPORTED);
    } else {
        UMF_EXPECT_EQ(umf_mock_ipc_export((char *)dev + 5000, true, &d, NULL),
                      UMF_MOCK_ERR_NOT_BASE);
        int64_t handles = umf_mock_control_get_live_count(
            &test_desc, UMF_GPU_MOCK_LIVE_IPC_HANDLES);
        umf_mock_alloc_info_t info;
        // An interior pointer exports the whole allocation.
        UMF_ASSERT_EQ(umf_mock_ipc_export((char *)dev + 5000, false, &d, &info),
                      UMF_MOCK_OK);
        UMF_EXPECT_PTR_EQ(info.base, dev);
        UMF_EXPECT(info.exported);
        UMF_EXPECT_EQ(d.size, 3 * 4096);
        UMF_EXPECT_EQ(d.pid, getpid());
        UMF_EXPECT_EQ(d.id, info.id);
        UMF_EXPECT(fd_open(d.fd));
        // The same fd every time, one handle counted.
        umf_mock_ipc_desc_t again;
        UMF_ASSERT_EQ(umf_mock_ipc_export(dev, true, &again, NULL),
                      UMF_MOCK_OK);
        UMF_EXPECT_EQ(again.fd, d.fd);
        UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                          &test_desc, UMF_GPU_MOCK_LIVE_IPC_HANDLES),
                      handles + 1);
        UMF_EXPECT_EQ(umf_mock_lookup(dev, &info), UMF_MOCK_OK);
        UMF_EXPECT(info.exported);
        // Freeing the allocation closes the driver's fd.
        UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
        UMF_EXPECT(!fd_open(d.fd));
        UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                          &test_desc, UMF_GPU_MOCK_LIVE_IPC_HANDLES),
                      handles);
        dev = NULL;
    }
    if (dev != NULL) {
        UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
    }
    UMF_EXPECT_EQ(umf_mock_free(host, UMF_MOCK_KIND_HOST, 0, NULL),
                  UMF_MOCK_OK);
}

UMF_C_TEST(MockIpc, ImportInThisProcess) {
    if (!test_core_init() || !ipc_capable()) {
        return;
    }
    void *dev;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 10000, 0, 0, 0, &dev),
                  UMF_MOCK_OK);
    memset(dev, 0x11, 10000);
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_ipc_export(dev, false, &d, NULL), UMF_MOCK_OK);
    // A first import and close, so that the C heap's size classes it uses
    // exist before the counts (a sanitizer's allocator maps each at first
    // use).
    void *warm;
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 0xc1, UMF_MOCK_IMPORT_NEW, &warm),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_ipc_close(warm, 0xc1, NULL), UMF_MOCK_OK);
    int fds = umf_test_count_open_fds();
    int maps = umf_test_count_mappings();
    void *a, *b;
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 0xc1, UMF_MOCK_IMPORT_NEW, &a),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 0xc1, UMF_MOCK_IMPORT_NEW, &b),
                  UMF_MOCK_OK);
    UMF_EXPECT(a != b && a != dev); // each import is a new mapping
    UMF_EXPECT_EQ(umf_test_count_open_fds(), fds); // no fd taken or kept
    UMF_EXPECT_EQ(((unsigned char *)a)[9999], 0x11);
    ((unsigned char *)b)[5] = 0x22; // one memory behind all three
    UMF_EXPECT_EQ(((unsigned char *)dev)[5], 0x22);
    umf_mock_alloc_info_t info;
    UMF_ASSERT_EQ(umf_mock_lookup((char *)a + 4096, &info), UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(info.base, a);
    UMF_EXPECT_EQ(info.kind, UMF_MOCK_KIND_IMPORTED);
    UMF_EXPECT_EQ(info.device, 0);
    UMF_EXPECT_EQ(info.owner, 0xc1);
    UMF_EXPECT_EQ(info.size, 10000);
    UMF_EXPECT_EQ(info.peer_pid, getpid());
    UMF_EXPECT_EQ(info.peer_id, d.id);
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                  2);
    // An import is not freed, and an allocation is not closed.
    UMF_EXPECT_EQ(umf_mock_free(a, UMF_MOCK_KIND_ALLOCATED, 0, NULL),
                  UMF_MOCK_ERR_WRONG_KIND);
    UMF_EXPECT_EQ(umf_mock_ipc_close(dev, 0, NULL), UMF_MOCK_ERR_WRONG_KIND);
    UMF_EXPECT_EQ(umf_mock_ipc_close((char *)a + 1, 0, NULL),
                  UMF_MOCK_ERR_NOT_BASE);
    UMF_EXPECT_EQ(umf_mock_ipc_close(a, 0xc2, NULL), UMF_MOCK_ERR_WRONG_OWNER);
    // The exporter frees: imports keep memory and contents.
    UMF_ASSERT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    if (umf_mock_config()->memory == UMF_MOCK_MEMORY_ARENA) {
        UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                          &test_desc, UMF_GPU_MOCK_LIVE_QUARANTINED),
                      1);
    }
    // Reallocating does not hand out the imported pages (in the memfd
    // mode an address may come back, with new pages behind it).
    bool arena = umf_mock_config()->memory == UMF_MOCK_MEMORY_ARENA;
    void *again[64];
    for (int i = 0; i < 64; i++) {
        UMF_ASSERT_EQ(
            umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 1, 10000, 0, 0, 0, &again[i]),
            UMF_MOCK_OK);
        UMF_EXPECT(!arena || again[i] != dev);
        memset(again[i], 0x99, 10000);
    }
    UMF_EXPECT_EQ(((unsigned char *)a)[5], 0x22);
    UMF_EXPECT_EQ(((unsigned char *)b)[9999], 0x11);
    bool unmapped = true;
    UMF_EXPECT_EQ(umf_mock_ipc_close(a, 0xc1, &unmapped), UMF_MOCK_OK);
    UMF_EXPECT(unmapped);
    UMF_EXPECT_EQ(umf_mock_ipc_close(a, 0, NULL), UMF_MOCK_ERR_NOT_FOUND);
    UMF_EXPECT_EQ(umf_mock_ipc_close(b, 0, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_QUARANTINED),
                  0);
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_IMPORTED_MAPPINGS),
                  0);
    for (int i = 0; i < 64; i++) {
        UMF_EXPECT_EQ(umf_mock_free(again[i], UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
    }
    // The exported allocation's mapping went with the free (memfd mode).
    UMF_EXPECT_EQ(umf_test_count_mappings(), maps - (arena ? 0 : 1));
}

UMF_C_TEST(MockIpc, SharedAndExclusiveImports) {
    if (!test_core_init() || !ipc_capable()) {
        return;
    }
    void *dev;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 0, 0, 0, &dev),
                  UMF_MOCK_OK);
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_ipc_export(dev, true, &d, NULL), UMF_MOCK_OK);
    void *a, *b, *c, *x;
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 1, UMF_MOCK_IMPORT_SHARE, &a),
                  UMF_MOCK_OK);
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 1, UMF_MOCK_IMPORT_SHARE, &b),
                  UMF_MOCK_OK);
    UMF_EXPECT_PTR_EQ(a, b);
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 2, UMF_MOCK_IMPORT_SHARE, &c),
                  UMF_MOCK_OK);
    UMF_EXPECT(c != a); // another owner, another mapping
    UMF_EXPECT_EQ(umf_mock_ipc_import(&d, 0, 1, UMF_MOCK_IMPORT_EXCLUSIVE, &x),
                  UMF_MOCK_ERR_ALREADY_MAPPED);
    // A handle that differs in any field but the fd is another export (a
    // recycled pid, a forged size): never the existing mapping.
    umf_mock_ipc_desc_t other = d;
    other.start_time = d.start_time + 1;
    void *e, *f;
    UMF_ASSERT_EQ(umf_mock_ipc_import(&other, 0, 1, UMF_MOCK_IMPORT_SHARE, &e),
                  UMF_MOCK_OK);
    UMF_EXPECT(e != a);
    other = d;
    other.size = 32;
    UMF_ASSERT_EQ(
        umf_mock_ipc_import(&other, 0, 1, UMF_MOCK_IMPORT_EXCLUSIVE, &f),
        UMF_MOCK_OK);
    UMF_EXPECT(f != a && f != e);
    UMF_EXPECT_EQ(umf_mock_ipc_close(e, 1, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_ipc_close(f, 1, NULL), UMF_MOCK_OK);
    bool unmapped = true;
    UMF_EXPECT_EQ(umf_mock_ipc_close(a, 1, &unmapped), UMF_MOCK_OK);
    UMF_EXPECT(!unmapped); // one reference left
    UMF_EXPECT_EQ(umf_mock_ipc_close(b, 1, &unmapped), UMF_MOCK_OK);
    UMF_EXPECT(unmapped);
    UMF_EXPECT_EQ(umf_mock_ipc_close(c, 2, &unmapped), UMF_MOCK_OK);
    UMF_EXPECT(unmapped);
    UMF_ASSERT_EQ(umf_mock_ipc_import(&d, 0, 1, UMF_MOCK_IMPORT_EXCLUSIVE, &x),
                  UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_ipc_close(x, 1, NULL), UMF_MOCK_OK);
    UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
}

UMF_C_TEST(MockIpc, BadImports) {
    if (!test_core_init() || !ipc_capable()) {
        return;
    }
    void *dev, *out;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 0, 0, 0, &dev),
                  UMF_MOCK_OK);
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_ipc_export(dev, true, &d, NULL), UMF_MOCK_OK);
    umf_mock_ipc_desc_t bad = d;
    bad.fd = -1;
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    bad.fd = 999; // not open
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    bad.fd = STDERR_FILENO; // open, not ours
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad = d;
    bad.id = d.id + 1000; // not the exported allocation
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad = d;
    bad.size = 1ull << 40; // more than the file holds
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  umf_mock_config()->memory == UMF_MOCK_MEMORY_ARENA
                      ? UMF_MOCK_ERR_INVALID_ARGUMENT // past the arena
                      : UMF_MOCK_ERR_STALE_HANDLE);
    bad = d;
    bad.size = 2 * umf_mock_page_size; // more than was exported
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    bad = d;
    bad.file_ino = d.file_ino + 1; // the fd is another file
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    UMF_EXPECT_EQ(umf_mock_ipc_import(NULL, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_ipc_import(&d, 0, 0, UMF_MOCK_IMPORT_NEW, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    // After the free, the same descriptor is stale (the fd is closed).
    int keep = fcntl(d.fd, F_DUPFD_CLOEXEC, 0);
    UMF_ASSERT(keep >= 0);
    UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    bad = d;
    bad.fd = keep; // a consumer that took the fd before the free
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  umf_mock_config()->memory == UMF_MOCK_MEMORY_ARENA
                      ? UMF_MOCK_ERR_STALE_HANDLE
                      : UMF_MOCK_OK);
    if (umf_mock_config()->memory != UMF_MOCK_MEMORY_ARENA) {
        // A memfd of its own stays valid: like a dma-buf the consumer holds.
        UMF_EXPECT_EQ(umf_mock_ipc_close(out, 0, NULL), UMF_MOCK_OK);
    }
    close(keep);
}

// A file with the exported inode number and, in /proc, the exported memfd's
// very name, made on a tmpfs of its own in namespaces of its own (issue 27;
// the handle is given the file's inode number, test_foreign_file.h): only
// its device tells it from the export, and the import refuses it.
UMF_C_TEST(MockIpc, AFileWithTheExportedInodeOnAnotherDeviceIsRefused) {
    if (!test_core_init() || !ipc_capable()) {
        return;
    }
    void *dev, *out = NULL;
    UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, 64, 0, 0, 0, &dev),
                  UMF_MOCK_OK);
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_ipc_export(dev, true, &d, NULL), UMF_MOCK_OK);
    char name[64];
    if (d.slot_offset != UMF_MOCK_NO_SLOT) {
        snprintf(name, sizeof(name), "memfd:umf-gpu-mock-arena (deleted)");
    } else {
        snprintf(name, sizeof(name), "memfd:umf-gpu-mock:%llu (deleted)",
                 (unsigned long long)d.id);
    }
    uint64_t size = d.offset + d.mapped;
    if (d.slot_offset != UMF_MOCK_NO_SLOT && d.slot_offset + 8 > size) {
        size = d.slot_offset + 8;
    }
    int fake = -1;
    char why[256];
    if (umf_test_foreign_file(name, size, &fake, why, sizeof(why)) != 0) {
        fprintf(stderr, "skipped: %s\n", why);
        UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
        return;
    }
    struct stat st, real;
    UMF_ASSERT(fstat(fake, &st) == 0 && fstat(d.fd, &real) == 0);
    UMF_EXPECT_NE(st.st_dev, real.st_dev);
    UMF_EXPECT(S_ISREG(st.st_mode) && (uint64_t)st.st_size >= size);
    char path[64], link[256] = "", want[80];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fake);
    ssize_t n = readlink(path, link, sizeof(link) - 1);
    link[n > 0 ? n : 0] = '\0';
    snprintf(want, sizeof(want), "/%s", name);
    const char *got_link = link, *want_link = want;
    UMF_EXPECT_STREQ(got_link, want_link); // reads as the exported memfd's
    if (d.slot_offset != UMF_MOCK_NO_SLOT) {
        // The arena's slot word too, as the exporter's says: the block holds
        // the export.
        uint64_t word = 0;
        UMF_ASSERT(pread(d.fd, &word, sizeof(word), (off_t)d.slot_offset) ==
                   (ssize_t)sizeof(word));
        UMF_ASSERT(pwrite(fake, &word, sizeof(word), (off_t)d.slot_offset) ==
                   (ssize_t)sizeof(word));
    }
    umf_mock_ipc_desc_t bad = d;
    bad.fd = fake;
    bad.file_ino = (uint64_t)st.st_ino; // the file's inode is the handle's
    UMF_EXPECT_EQ(umf_mock_ipc_import(&bad, 0, 0, UMF_MOCK_IMPORT_NEW, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    close(fake);
    UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
}

UMF_C_TEST(MockIpc, FdFromProcess) {
    if (!test_core_init()) {
        return;
    }
    int out;
    UMF_EXPECT_EQ(umf_mock_fd_from_process(getpid(), STDERR_FILENO, NULL, &out),
                  UMF_MOCK_OK);
    UMF_EXPECT(out != STDERR_FILENO && fd_open(out));
    close(out);
    UMF_EXPECT_EQ(umf_mock_fd_from_process(getpid(), 999, NULL, &out),
                  UMF_MOCK_ERR_STALE_HANDLE);
    UMF_EXPECT_EQ(umf_mock_fd_from_process(0, 1, NULL, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_fd_from_process(getppid(), -1, NULL, &out),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
    UMF_EXPECT_EQ(umf_mock_fd_from_process(getpid(), 1, NULL, NULL),
                  UMF_MOCK_ERR_INVALID_ARGUMENT);
}

// ---- Across processes -----------------------------------------------------

enum { XP_SIZE = 100000 };

// The consumer: takes the exporter's fd, imports, checks the data, reports,
// waits until the exporter freed, checks again, closes.
UMF_TEST_CHILD(mock_ipc_consumer) {
    (void)argc;
    (void)argv;
    if (umf_mock_init(&test_desc) != UMF_MOCK_OK) {
        return 10;
    }
    unsigned char h[UMF_MOCK_IPC_HANDLE_BYTES];
    umf_mock_ipc_desc_t d;
    if (umf_test_recv(sock, h, sizeof(h)) ||
        umf_mock_ipc_unpack(h, &d) != UMF_MOCK_OK) {
        return 11;
    }
    int fd;
    umf_fd_identity_t identity = {d.start_time, d.pidfs_ino, 0, d.file_ino};
    if (umf_mock_fd_from_process(d.pid, d.fd, &identity, &fd) != UMF_MOCK_OK) {
        return 12;
    }
    d.fd = fd;
    void *p;
    if (umf_mock_ipc_import(&d, 0, 0, UMF_MOCK_IMPORT_NEW, &p) != UMF_MOCK_OK) {
        return 13;
    }
    close(fd); // the import keeps no claim on it
    unsigned char *b = p;
    if (b[0] != 0xa5 || b[XP_SIZE - 1] != 0x5a) {
        return 14;
    }
    b[1] = 0x77; // the exporter sees this
    char ok = 'k';
    if (umf_test_send(sock, &ok, 1) || umf_test_recv(sock, &ok, 1)) {
        return 15;
    }
    // The exporter freed and reallocated meanwhile.
    if (b[0] != 0xa5 || b[XP_SIZE - 1] != 0x5a || b[1] != 0x77) {
        return 16;
    }
    if (umf_mock_ipc_close(p, 0, NULL) != UMF_MOCK_OK) {
        return 17;
    }
    return umf_test_send(sock, &ok, 1) ? 18 : 0;
}

UMF_C_TEST(MockIpc, AcrossProcessesValidAfterFree) {
    if (!test_core_init() || !ipc_capable()) {
        return;
    }
    void *dev;
    UMF_ASSERT_EQ(
        umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, XP_SIZE, 0, 0, 0, &dev),
        UMF_MOCK_OK);
    unsigned char *b = dev;
    b[0] = 0xa5;
    b[XP_SIZE - 1] = 0x5a;
    umf_mock_ipc_desc_t d;
    UMF_ASSERT_EQ(umf_mock_ipc_export(dev, true, &d, NULL), UMF_MOCK_OK);
    unsigned char h[UMF_MOCK_IPC_HANDLE_BYTES];
    umf_mock_ipc_pack(&d, h);
    umf_test_child_t child;
    UMF_ASSERT_EQ(umf_test_child_start(&child, "mock_ipc_consumer", NULL), 0);
    char ack = 0;
    UMF_EXPECT_EQ(umf_test_send(child.sock, h, sizeof(h)), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &ack, 1), 0);
    UMF_EXPECT_EQ(b[1], 0x77);
    UMF_EXPECT_EQ(umf_mock_free(dev, UMF_MOCK_KIND_DEVICE, 0, NULL),
                  UMF_MOCK_OK);
    void *again[32];
    for (int i = 0; i < 32; i++) {
        UMF_ASSERT_EQ(umf_mock_alloc(UMF_MOCK_KIND_DEVICE, 0, XP_SIZE, 0, 0, 0,
                                     &again[i]),
                      UMF_MOCK_OK);
        UMF_EXPECT(umf_mock_config()->memory != UMF_MOCK_MEMORY_ARENA ||
                   again[i] != dev);
        memset(again[i], 0, XP_SIZE);
    }
    if (umf_mock_config()->memory == UMF_MOCK_MEMORY_ARENA) {
        UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                          &test_desc, UMF_GPU_MOCK_LIVE_QUARANTINED),
                      1);
    }
    UMF_EXPECT_EQ(umf_test_send(child.sock, &ack, 1), 0);
    UMF_EXPECT_EQ(umf_test_recv(child.sock, &ack, 1), 0);
    UMF_EXPECT_EQ(umf_test_child_wait(&child), 0);
    UMF_EXPECT_EQ(umf_mock_control_get_live_count(
                      &test_desc, UMF_GPU_MOCK_LIVE_QUARANTINED),
                  0);
    for (int i = 0; i < 32; i++) {
        UMF_EXPECT_EQ(umf_mock_free(again[i], UMF_MOCK_KIND_DEVICE, 0, NULL),
                      UMF_MOCK_OK);
    }
}

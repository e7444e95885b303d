// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd server and its client (utils/util_fd_socket.h) on their own: the
// lifecycle (nothing before the first export, stopped at the last detach,
// none in a fork child), references and revocation, what a request must
// name, and the choice between pidfd_getfd and the socket.

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_child.h"
#include "util_fd.h"
#include "test_sanitizers.h"
#include "util_fd_socket.h"
#include "util_fd_wire.h"

namespace {

// An exported file of this process: a memfd, its identity, and the
// request a consumer would make for it.
struct Exported {
    int fd = -1;
    umf_fd_identity_t identity{};
    umf_fd_socket_name_t name{};
    uintptr_t owner;
    uint64_t base, id;

    Exported(uintptr_t o, uint64_t b, uint64_t i) : owner(o), base(b), id(i) {
        fd = memfd_create("umf-fd-socket-test", MFD_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0) {
            identity = {umf_proc_self_start_time(), umf_proc_self_pidfs_ino(),
                        (uint64_t)st.st_dev, (uint64_t)st.st_ino};
        }
    }
    int Export(const umf_fd_serve_policy_t &policy) {
        return umf_fd_server_export(owner, base, id, fd, &policy, &name);
    }
    umf_fd_socket_request_t Request() const {
        return {getpid(), fd, id, identity};
    }
    umf_fd_status_t Take(int *out, umf_fd_failure_t *why = nullptr) const {
        umf_fd_socket_request_t req = Request();
        umf_fd_failure_t w;
        return umf_fd_socket_take(&name, &req, out, why != nullptr ? why : &w);
    }
    ~Exported() {
        if (fd >= 0) {
            close(fd);
        }
    }
};

// The request of `r` on the wire.
umf_fd_wire_request_t Wire(const umf_fd_socket_request_t &r) {
    umf_fd_wire_request_t w = {};
    w.magic = UMF_FD_WIRE_MAGIC;
    w.version = UMF_FD_WIRE_VERSION;
    w.size = sizeof(w);
    w.pid = (int32_t)r.pid;
    w.fd = r.remote_fd;
    w.alloc_id = r.alloc_id;
    w.start_time = r.identity.start_time;
    w.pidfs_ino = r.identity.pidfs_ino;
    w.dev = r.identity.dev;
    w.ino = r.identity.ino;
    return w;
}

// A connection to `name`, or -1.
int Connect(const umf_fd_socket_name_t &name) {
    sockaddr_un addr;
    socklen_t len = umf_fd_wire_addr(&name, &addr);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s >= 0 && (len == 0 || connect(s, (sockaddr *)&addr, len) != 0)) {
        close(s);
        s = -1;
    }
    return s;
}

// The status of the reply on `s` (-1: none, or none within `ms`); an fd
// it carries is closed.
int ReplyStatus(int s, int ms) {
    pollfd p = {s, POLLIN, 0};
    if (poll(&p, 1, ms) != 1) {
        return -1;
    }
    umf_fd_wire_reply_t rep = {};
    if (umf_test_recv_msg(s, &rep, sizeof(rep), MSG_DONTWAIT, nullptr) !=
        (long)sizeof(rep)) {
        return -1;
    }
    return (int)rep.status;
}

// Sends `n` bytes of `w` as a request, unauthenticated, and returns the
// reply's status (-1: none).
int RawRequest(const umf_fd_socket_name_t &name, const void *w, size_t n) {
    int s = Connect(name);
    if (s < 0) {
        return -1;
    }
    int status = send(s, w, n, MSG_NOSIGNAL) == (ssize_t)n
                     ? ReplyStatus(s, UMF_FD_CLIENT_TIMEOUT_MS)
                     : -1;
    close(s);
    return status;
}

// The fd taken is the exported file.
bool SameFile(int a, int b) {
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_ino == sb.st_ino &&
           sa.st_dev == sb.st_dev;
}

const umf_fd_serve_policy_t kServe = {UMF_FD_TRANSFER_AUTO, nullptr, nullptr, 0,
                                      nullptr};

TEST(UtilFdSocket, TheServerStartsAtTheFirstExportAndStopsAtTheLastDetach) {
    ASSERT_FALSE(umf_fd_server_running()) << "nothing is exported yet";
    int fds = umf_test_count_open_fds();
    {
        Exported a(1, 0x1000, 11), b(2, 0x2000, 12);
        ASSERT_EQ(a.Export(kServe), 0);
        EXPECT_TRUE(umf_fd_server_running());
        EXPECT_EQ(a.name.kind, UMF_FD_SOCKET_ABSTRACT);
        ASSERT_EQ(b.Export(kServe), 0);
        EXPECT_EQ(umf_fd_server_exports(), 2u);
        int got = -1;
        ASSERT_EQ(a.Take(&got), UMF_FD_OK);
        EXPECT_TRUE(SameFile(got, a.fd));
        close(got);
        umf_fd_server_detach(1); // b's owner still exports
        EXPECT_TRUE(umf_fd_server_running());
        EXPECT_EQ(umf_fd_server_exports(), 1u);
        EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
        umf_fd_server_detach(2);
        EXPECT_FALSE(umf_fd_server_running());
        EXPECT_EQ(umf_fd_server_exports(), 0u);
        // The socket went with the server: a quick error, no hang; and the
        // exporter (this process) lives, so it is not "the exporter has
        // exited" but "not exported any more".
        umf_fd_failure_t why;
        EXPECT_EQ(b.Take(&got, &why), UMF_FD_REVOKED);
        EXPECT_STREQ(why.call, "connect");
    }
    EXPECT_EQ(umf_test_count_open_fds(), fds);
}

TEST(UtilFdSocket, ReferencesPutAndRevoke) {
    Exported a(3, 0x3000, 31);
    ASSERT_EQ(a.Export(kServe), 0);
    ASSERT_EQ(a.Export(kServe), 0); // a second get of the same handle
    EXPECT_EQ(umf_fd_server_exports(), 1u);
    int got = -1;
    umf_fd_server_unexport(3, 0x3000, a.fd); // one put: still exported
    ASSERT_EQ(a.Take(&got), UMF_FD_OK);
    close(got);
    umf_fd_server_unexport(3, 0x3000, a.fd);
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    ASSERT_EQ(a.Export(kServe), 0);
    umf_fd_server_revoke(3, 0x3000); // the free: every reference
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    umf_fd_server_detach(3);
    EXPECT_FALSE(umf_fd_server_running());
}

// A free revokes only its own base's export, whatever other bases it
// shares the server's quick look with, and an export after the last one
// went is revoked by its free again.
TEST(UtilFdSocket, RevokeTakesOnlyItsOwnBase) {
    Exported a(3, 0x3000, 31);
    ASSERT_EQ(a.Export(kServe), 0);
    for (uint64_t k = 1; k <= 10000; k++) {
        umf_fd_server_revoke(3, 0x3000 + k * 0x1000); // other frees
        umf_fd_server_revoke(4, 0x3000);              // another owner's
    }
    int got = -1;
    ASSERT_EQ(a.Take(&got), UMF_FD_OK);
    close(got);
    umf_fd_server_revoke(3, 0x3000);
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    EXPECT_EQ(umf_fd_server_exports(), 0u);
    ASSERT_EQ(a.Export(kServe), 0);
    ASSERT_EQ(a.Take(&got), UMF_FD_OK);
    close(got);
    umf_fd_server_revoke(3, 0x3000);
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    umf_fd_server_detach(3);
    EXPECT_FALSE(umf_fd_server_running());
}

// Serving does not double an exporter's fds: the server holds none per
// export (only its own sockets), and duplicates the fd per request.
TEST(UtilFdSocket, AnExportHoldsNoFdOfItsOwn) {
    Exported first(5, 0x5000, 51);
    ASSERT_EQ(first.Export(kServe), 0); // the server and its sockets start
    std::vector<std::unique_ptr<Exported>> more;
    for (uint64_t i = 0; i < 64; i++) {
        more.push_back(
            std::make_unique<Exported>(5, 0x6000 + i * 0x1000, 60 + i));
    }
    int fds = umf_test_count_open_fds();
    for (auto &e : more) {
        ASSERT_EQ(e->Export(kServe), 0);
    }
    EXPECT_EQ(umf_test_count_open_fds(), fds);
    EXPECT_EQ(umf_fd_server_exports(), 65u);
    int got = -1;
    ASSERT_EQ(more.back()->Take(&got), UMF_FD_OK);
    EXPECT_TRUE(SameFile(got, more.back()->fd));
    close(got);
    // The server closes its copy under its lock right after sending it; a
    // repeated export takes that lock, so the copy is gone after it. The
    // server's end of the connection it closes after answering, without the
    // lock: a transient fd, which goes within a while.
    ASSERT_EQ(more.back()->Export(kServe), 0);
    EXPECT_EQ(umf_test_count_open_fds_settled(fds, 5000), fds);
    umf_fd_server_detach(5);
    EXPECT_FALSE(umf_fd_server_running());
}

// An exporter that closes its fd without revoking (a driver bug, or a
// number reused behind the server's back) gets nothing sent for it: not
// the other file now at that number, and no error but "not exported".
TEST(UtilFdSocket, AnFdClosedWithoutARevokeIsNotSent) {
    Exported a(6, 0x7000, 71);
    ASSERT_EQ(a.Export(kServe), 0);
    int other = memfd_create("umf-fd-socket-other", MFD_CLOEXEC);
    ASSERT_GE(other, 0);
    ASSERT_EQ(dup3(other, a.fd, O_CLOEXEC), a.fd); // the number, reused
    close(other);
    int got = -1;
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    close(a.fd); // the number, closed
    EXPECT_EQ(a.Take(&got), UMF_FD_REVOKED);
    a.fd = -1;
    umf_fd_server_detach(6);
    EXPECT_FALSE(umf_fd_server_running());
}

TEST(UtilFdSocket, ARequestMustNameTheExporterTheAllocationAndTheFile) {
    Exported a(4, 0x4000, 41);
    ASSERT_EQ(a.Export(kServe), 0);
    int got = -1;
    umf_fd_failure_t why;
    umf_fd_socket_request_t req = a.Request();
    req.alloc_id = 42;
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_REVOKED);
    req = a.Request();
    req.identity.ino++;
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_REVOKED);
    req = a.Request();
    req.remote_fd = STDERR_FILENO; // another fd of ours: never sent
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_REVOKED);
    // Another exporter than the one serving: the client refuses the server
    // before it answers (the server would refuse the request too: below).
    req = a.Request();
    req.pid = getppid();
    req.identity.pidfs_ino = 0; // by pid and start time
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_WRONG_PEER);
    EXPECT_STREQ(why.call, "SO_PEERCRED");
    req = a.Request();
    if (req.identity.pidfs_ino != 0) {
        req.identity.pidfs_ino++;
    } else {
        req.identity.start_time++;
    }
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_WRONG_PEER);
    req = a.Request();
    req.identity.ino = 0; // the file must be named
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why),
              UMF_FD_INVALID_ARGUMENT);
    req = a.Request();
    req.identity.dev = 0; // its device too
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why),
              UMF_FD_INVALID_ARGUMENT);
    // The server's own check, with a client that does not check it.
    umf_fd_wire_request_t w = Wire(a.Request());
    EXPECT_EQ(RawRequest(a.name, &w, sizeof(w)), UMF_FD_WIRE_OK);
    w.pid = (int32_t)getppid();
    EXPECT_EQ(RawRequest(a.name, &w, sizeof(w)), UMF_FD_WIRE_NOT_EXPORTER);
    w = Wire(a.Request());
    w.pidfs_ino ^= 1;
    w.start_time ^= 1;
    EXPECT_EQ(RawRequest(a.name, &w, sizeof(w)), UMF_FD_WIRE_NOT_EXPORTER);
    w = Wire(a.Request());
    EXPECT_EQ(RawRequest(a.name, &w, sizeof(w) - 1), UMF_FD_WIRE_MALFORMED);
    umf_fd_server_detach(4);
}

TEST(UtilFdSocket, AnAllowListWithoutOurUidRefusesUs) {
    Exported a(5, 0x5000, 51);
    uint32_t other = geteuid() + 1;
    umf_fd_serve_policy_t policy = kServe;
    policy.uid_count = 1;
    policy.uids = &other;
    ASSERT_EQ(a.Export(policy), 0);
    int got = -1;
    umf_fd_failure_t why;
    EXPECT_EQ(a.Take(&got, &why), UMF_FD_UID_REFUSED);
    EXPECT_EQ(why.found, (uint64_t)geteuid());
    char text[768];
    EXPECT_NE(std::string(umf_fd_failure_describe(&why, text, sizeof(text)))
                  .find("not allowed"),
              std::string::npos);
    umf_fd_server_detach(5);
}

TEST(UtilFdSocket, PidfdOnlyServesNothingAndBadPoliciesAreRefused) {
    Exported a(6, 0x6000, 61);
    umf_fd_serve_policy_t policy = kServe;
    policy.transfer = UMF_FD_TRANSFER_PIDFD;
    ASSERT_EQ(a.Export(policy), 0);
    EXPECT_EQ(a.name.kind, UMF_FD_SOCKET_NONE);
    EXPECT_FALSE(umf_fd_server_running());
    int got = -1;
    EXPECT_EQ(a.Take(&got), UMF_FD_NOT_SERVED);
    policy = kServe;
    policy.uid_count = UMF_FD_SERVER_MAX_UIDS + 1;
    uint32_t uids[UMF_FD_SERVER_MAX_UIDS + 1] = {};
    policy.uids = uids;
    EXPECT_EQ(a.Export(policy), EINVAL);
    policy = kServe;
    policy.socket_dir =
        "/a/directory/whose/name/is/far/too/long/for/the/record";
    EXPECT_EQ(a.Export(policy), ENAMETOOLONG);
    EXPECT_EQ(umf_fd_server_export(6, 0, 1, -1, &kServe, &a.name), EINVAL);
    EXPECT_EQ(umf_fd_server_exports(), 0u);
    umf_fd_server_detach(6);
    EXPECT_FALSE(umf_fd_server_running());
}

TEST(UtilFdSocket, APathSocketServesAndIsRemovedAtTheStop) {
    char dir[] = "/tmp/umf-fds-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    Exported a(7, 0x7000, 71);
    umf_fd_serve_policy_t policy = kServe;
    policy.socket_dir = dir;
    ASSERT_EQ(a.Export(policy), 0);
    ASSERT_EQ(a.name.kind, UMF_FD_SOCKET_PATH);
    std::string path(a.name.name, a.name.len);
    EXPECT_EQ(path.rfind(std::string(dir) + "/", 0), 0u) << path;
    EXPECT_EQ(access(path.c_str(), F_OK), 0);
    int got = -1;
    ASSERT_EQ(a.Take(&got), UMF_FD_OK);
    EXPECT_TRUE(SameFile(got, a.fd));
    close(got);
    umf_fd_server_detach(7);
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "the socket file stays";
    rmdir(dir);
}

TEST(UtilFdSocket, AForkChildInheritsNoServer) {
    Exported a(8, 0x8000, 81);
    ASSERT_EQ(a.Export(kServe), 0);
    // The serving thread, started by the export, is waiting in poll() when
    // the fork comes: it served a request, and a repeated export waits for
    // its lock, which it holds until the reply went. A fork while a thread
    // is inside malloc would leave the child's allocator locked (clang 14's
    // AddressSanitizer takes no allocator lock around fork).
    int got = -1;
    ASSERT_EQ(a.Take(&got), UMF_FD_OK);
    close(got);
    ASSERT_EQ(a.Export(kServe), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // No thread, no export; the parent's socket still serves the
        // parent. A fresh export starts the child's own server.
        bool ok = !umf_fd_server_running() && umf_fd_server_exports() == 0;
        umf_fd_socket_request_t req = a.Request();
        req.pid = getppid();
        umf_fd_failure_t why;
        ok = ok && umf_fd_socket_take(&a.name, &req, &got, &why) == UMF_FD_OK;
        if (ok) {
            close(got);
        }
        if (!UMF_TEST_TSAN) {
            Exported b(9, 0x9000, 91);
            ok = ok && b.Export(kServe) == 0 && umf_fd_server_running() &&
                 b.Take(&got) == UMF_FD_OK;
            umf_fd_server_detach(9);
        }
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_TRUE(umf_fd_server_running());
    umf_fd_server_detach(8);
}

TEST(UtilFdSocket, TakeFallsBackOnlyWhereTheTransferAllows) {
    Exported a(10, 0xa000, 101);
    ASSERT_EQ(a.Export(kServe), 0);
    // In this process itself, pidfd or socket, it is a dup.
    umf_fd_source_t src = {getpid(),    a.fd,    a.id,
                           &a.identity, &a.name, UMF_FD_TRANSFER_SOCKET};
    int got = -1;
    umf_fd_failure_t why;
    ASSERT_EQ(umf_fd_take(&src, &got, &why), UMF_FD_OK);
    EXPECT_TRUE(SameFile(got, a.fd));
    close(got);
    // No server named, socket only: not served.
    src.pid = getppid();
    src.socket = nullptr;
    EXPECT_EQ(umf_fd_take(&src, &got, &why), UMF_FD_NOT_SERVED);
    umf_fd_server_detach(10);
}

} // namespace

// ---- Who answers: the client proves the server (issue 27) -----------------

namespace {

// What a serving role tells the parent: where it serves and a request that
// names the role's process as the exporter of a memfd of its own.
struct Serving {
    umf_fd_socket_name_t name;
    umf_fd_socket_request_t req;
};

// An fd server in a process of its own: exports a memfd and sends a
// Serving; then waits for the end of its socket (the parent may stop it
// meanwhile with SIGSTOP).
UMF_TEST_CHILD(fds_exporter) {
    (void)argc, (void)argv;
    Exported e(1, 0x1000, 7);
    Serving s = {};
    if (e.Export(kServe) != 0) {
        return 1;
    }
    s.name = e.name;
    s.req = e.Request();
    char c;
    return umf_test_send(sock, &s, sizeof(s)) == 0 &&
                   umf_test_recv(sock, &c, 1) != 0
               ? 0
               : 2;
}

// A fake server on an abstract name of its own. argv[0]:
//   impostor  serves the fd it receives first (the parent's export) to
//             every request: OK, with the fd
//   busy      answers every request "dropped" (BUSY), and names itself the
//             exporter in its Serving
//   hangup    closes every connection unanswered, and names itself so too
// Serves until its socket ends, then sends how many it answered.
UMF_TEST_CHILD(fds_fake) {
    if (argc < 1) {
        return 1;
    }
    std::string mode = argv[0];
    int fd = mode == "impostor" ? umf_test_recv_fd(sock) : -1;
    Exported own(1, 0x1000, 9); // the file a self-named fake names
    Serving s = {};
    std::string name = "umf-gpu-fd-test." + std::to_string(getpid());
    s.name.kind = UMF_FD_SOCKET_ABSTRACT;
    s.name.len = (uint16_t)name.size();
    std::memcpy(s.name.name, name.data(), name.size());
    s.req = own.Request();
    sockaddr_un addr;
    socklen_t len = umf_fd_wire_addr(&s.name, &addr);
    int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if ((mode == "impostor" && fd < 0) || l < 0 ||
        bind(l, (sockaddr *)&addr, len) != 0 || listen(l, 16) != 0 ||
        umf_test_send(sock, &s, sizeof(s)) != 0) {
        return 2;
    }
    int answered = 0;
    for (;;) {
        pollfd p[2] = {{sock, POLLIN, 0}, {l, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            continue;
        }
        if (p[0].revents != 0) {
            break; // the parent is done
        }
        int c = accept4(l, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0) {
            continue;
        }
        umf_fd_wire_request_t w;
        if (recv(c, &w, sizeof(w), 0) > 0 && mode != "hangup") {
            umf_fd_wire_reply_t rep = {
                UMF_FD_WIRE_MAGIC,
                mode == "busy" ? UMF_FD_WIRE_BUSY : UMF_FD_WIRE_OK, 0, 0};
            answered += (mode == "impostor"
                             ? umf_test_send_fd_with(c, &rep, sizeof(rep), fd)
                             : umf_test_send(c, &rep, sizeof(rep))) == 0;
        }
        close(c);
    }
    return umf_test_send(sock, &answered, sizeof(answered)) == 0 ? 0 : 3;
}

// What fds_taker reports.
struct Taken {
    int status; // umf_fd_status_t
    char call[32];
    uint64_t expected, found;
    int same_file; // the fd taken is the parent's exported file
};

// Takes the fd of the Serving it receives (its name and request) from the
// server named there, as a kernel without some calls would: argv names
// what it refuses, "SO_PEERPIDFD" (Linux < 6.5) and "pidfd_open" (Linux
// < 5.3, or a seccomp profile). Then the parent's export fd arrives, to
// compare with.
UMF_TEST_CHILD(fds_taker) {
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        int r = a == "SO_PEERPIDFD" ? umf_test_refuse_syscall_arg(
                                          SYS_getsockopt, 2, 77, ENOPROTOOPT)
                : a == "pidfd_open"
                    ? umf_test_refuse_syscall(SYS_pidfd_open, ENOSYS)
                    : -1;
        if (r != 0) {
            return 1;
        }
    }
    Serving s;
    if (umf_test_recv(sock, &s, sizeof(s)) != 0) {
        return 2;
    }
    Taken t = {};
    int got = -1;
    umf_fd_failure_t why = {};
    t.status = umf_fd_socket_take(&s.name, &s.req, &got, &why);
    std::snprintf(t.call, sizeof(t.call), "%s",
                  why.call != nullptr ? why.call : "");
    t.expected = why.expected;
    t.found = why.found;
    int theirs = umf_test_recv_fd(sock);
    t.same_file = got >= 0 && theirs >= 0 && SameFile(got, theirs);
    if (got >= 0) {
        close(got);
    }
    if (theirs >= 0) {
        close(theirs);
    }
    return umf_test_send(sock, &t, sizeof(t)) == 0 ? 0 : 3;
}

// fds_taker's report for `s`, refusing `refuse`; `file` is the export to
// compare with.
Taken TakeIn(const Serving &s, std::vector<const char *> refuse, int file) {
    refuse.push_back(nullptr);
    umf_test_child_t c;
    Taken t = {};
    t.status = -1;
    if (umf_test_child_start(&c, "fds_taker", refuse.data()) != 0) {
        ADD_FAILURE() << "fds_taker did not start";
        return t;
    }
    EXPECT_EQ(umf_test_send(c.sock, &s, sizeof(s)), 0);
    EXPECT_EQ(umf_test_send_fd(c.sock, file), 0);
    EXPECT_EQ(umf_test_recv(c.sock, &t, sizeof(t)), 0);
    EXPECT_EQ(umf_test_child_wait(&c), 0);
    return t;
}

// The parent's export, served by this process.
struct Served : Exported {
    Serving s{};
    explicit Served(uint64_t id) : Exported(20, 0x20000 + id * 0x1000, id) {
        EXPECT_EQ(Export(kServe), 0);
        s.name = name;
        s.req = Request();
    }
    ~Served() {
        umf_fd_server_detach(20);
    }
};

// A process that serves the very file exported, on a name of its own, is
// refused before its fd is received: the file check alone would pass.
TEST(UtilFdSocketPeer, AnImpostorServingTheExportedFileIsRefused) {
    Exported a(21, 0x21000, 211);
    umf_test_child_t fake;
    const char *args[] = {"impostor", nullptr};
    ASSERT_EQ(umf_test_child_start(&fake, "fds_fake", args), 0);
    ASSERT_EQ(umf_test_send_fd(fake.sock, a.fd), 0);
    Serving s;
    ASSERT_EQ(umf_test_recv(fake.sock, &s, sizeof(s)), 0);
    s.req = a.Request(); // names this process as the exporter
    int fds = umf_test_count_open_fds();
    int got = -1;
    umf_fd_failure_t why;
    EXPECT_EQ(umf_fd_socket_take(&s.name, &s.req, &got, &why),
              UMF_FD_WRONG_PEER);
    EXPECT_STREQ(why.call, umf_proc_self_pidfs_ino() != 0 ? "SO_PEERPIDFD"
                                                          : "SO_PEERCRED");
    char text[768];
    EXPECT_NE(std::string(umf_fd_failure_describe(&why, text, sizeof(text)))
                  .find("not the exporter"),
              std::string::npos)
        << text;
    EXPECT_EQ(umf_test_count_open_fds(), fds) << "its fd was received";
    // By start time too (an exporter on a kernel without pidfs).
    s.req.identity.pidfs_ino = 0;
    EXPECT_EQ(umf_fd_socket_take(&s.name, &s.req, &got, &why),
              UMF_FD_WRONG_PEER);
    EXPECT_STREQ(why.call, "SO_PEERCRED");
    close(fake.sock); // done: it reports and exits
    fake.sock = -1;
    EXPECT_EQ(waitpid(fake.pid, nullptr, 0), fake.pid);
}

// The exporter proven by its start time, where the handle has no pidfd
// inode (a kernel without pidfs): the pid and start time the kernel shows
// for the peer.
TEST(UtilFdSocketPeer, AStartTimeIdentityProvesTheServer) {
    Served a(22);
    umf_fd_socket_request_t req = a.s.req;
    req.identity.pidfs_ino = 0;
    int got = -1;
    umf_fd_failure_t why;
    ASSERT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_OK);
    EXPECT_TRUE(SameFile(got, a.fd));
    close(got);
    req.identity.start_time++;
    EXPECT_EQ(umf_fd_socket_take(&a.name, &req, &got, &why), UMF_FD_WRONG_PEER);
    EXPECT_STREQ(why.call, "/proc/<pid>/stat");
    EXPECT_EQ(why.found, req.identity.start_time - 1);
}

// Where the kernel has no SO_PEERPIDFD (before 6.5) the client opens a
// pidfd of the peer's pid; where it has no pidfd_open either, the start
// time alone. Each still tells the exporter from another process.
TEST(UtilFdSocketPeer, TheProofWorksWithoutSoPeerpidfdAndWithoutPidfds) {
    Served a(23);
    Taken t = TakeIn(a.s, {"SO_PEERPIDFD"}, a.fd);
    EXPECT_EQ(t.status, UMF_FD_OK) << t.call;
    EXPECT_TRUE(t.same_file);
    Serving other = a.s;
    other.req.identity.pidfs_ino ^= 1;
    other.req.identity.start_time ^= 1;
    t = TakeIn(other, {"SO_PEERPIDFD"}, a.fd);
    EXPECT_EQ(t.status, UMF_FD_WRONG_PEER);
    EXPECT_STREQ(t.call,
                 a.identity.pidfs_ino != 0 ? "pidfd_open" : "/proc/<pid>/stat");
    t = TakeIn(a.s, {"SO_PEERPIDFD", "pidfd_open"}, a.fd);
    EXPECT_EQ(t.status, UMF_FD_OK) << t.call;
    EXPECT_TRUE(t.same_file);
    t = TakeIn(other, {"SO_PEERPIDFD", "pidfd_open"}, a.fd);
    EXPECT_EQ(t.status, UMF_FD_WRONG_PEER);
    EXPECT_STREQ(t.call, "/proc/<pid>/stat");
}

// A server that says it dropped the request (too many clients) is asked
// again a few times, then the answer is BUSY, quickly; one that hangs up
// unanswered while alive is BUSY too, never "the exporter has exited".
TEST(UtilFdSocketPeer, ADroppedRequestIsBusyNotAnExit) {
    for (const char *mode : {"busy", "hangup"}) {
        umf_test_child_t fake;
        const char *args[] = {mode, nullptr};
        ASSERT_EQ(umf_test_child_start(&fake, "fds_fake", args), 0);
        Serving s;
        ASSERT_EQ(umf_test_recv(fake.sock, &s, sizeof(s)), 0);
        EXPECT_EQ(s.req.pid, fake.pid); // it is the exporter named
        int got = -1;
        umf_fd_failure_t why;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        EXPECT_EQ(umf_fd_socket_take(&s.name, &s.req, &got, &why), UMF_FD_BUSY)
            << mode;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms =
            (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
        bool busy = std::string(mode) == "busy";
        EXPECT_EQ(why.found, busy ? 8u : 1u) << mode << ": the attempts";
        EXPECT_LT(ms, busy ? 1000 : 3000) << mode;
        char text[768];
        EXPECT_NE(std::string(umf_fd_failure_describe(&why, text, sizeof(text)))
                      .find("try again later"),
                  std::string::npos)
            << text;
        close(fake.sock);
        fake.sock = -1;
        EXPECT_EQ(waitpid(fake.pid, nullptr, 0), fake.pid);
    }
}

// ---- Floods: who is held, who is dropped (issue 27) -------------------------

// The server of a stopped exporter accepts nothing: connections queue in its
// backlog, in order. When it runs again, a request that waits among them is
// answered as its connection is accepted, whatever else queued around it;
// of the connections that sent nothing, it holds this process's newest
// UMF_FD_SERVER_MAX_PER_PEER and tells each older one it was dropped
// (BUSY), oldest first.
TEST(UtilFdSocketFlood, AWaitingRequestIsAnsweredAndOnlyTheOldestIdleDropped) {
    umf_test_child_t exporter;
    ASSERT_EQ(umf_test_child_start(&exporter, "fds_exporter", nullptr), 0);
    Serving s;
    ASSERT_EQ(umf_test_recv(exporter.sock, &s, sizeof(s)), 0);
    ASSERT_EQ(kill(exporter.pid, SIGSTOP), 0);
    constexpr int kIdle = 40; // before and after the request: 80 < backlog
    std::vector<int> idle;
    for (int i = 0; i < kIdle; i++) {
        idle.push_back(Connect(s.name));
        ASSERT_GE(idle.back(), 0) << i;
    }
    umf_fd_status_t status = UMF_FD_OS_ERROR;
    int got = -1;
    std::thread request([&] {
        umf_fd_failure_t why;
        status = umf_fd_socket_take(&s.name, &s.req, &got, &why);
    });
    // Its connection queues among the idle ones (where exactly does not
    // matter: any place is answered).
    usleep(50 * 1000);
    for (int i = 0; i < kIdle; i++) {
        idle.push_back(Connect(s.name)); // the thread runs: no ASSERT
        EXPECT_GE(idle.back(), 0) << kIdle + i;
    }
    ASSERT_EQ(kill(exporter.pid, SIGCONT), 0);
    request.join();
    EXPECT_EQ(status, UMF_FD_OK);
    if (got >= 0) {
        close(got);
    }
    // The oldest are told at once; the newest share stays held.
    size_t held = UMF_FD_SERVER_MAX_PER_PEER;
    for (size_t i = 0; i < idle.size(); i++) {
        bool dropped = i < idle.size() - held;
        EXPECT_EQ(ReplyStatus(idle[i], dropped ? 2000 : 0),
                  dropped ? (int)UMF_FD_WIRE_BUSY : -1)
            << "connection " << i;
        close(idle[i]);
    }
    close(exporter.sock);
    exporter.sock = -1;
    EXPECT_EQ(waitpid(exporter.pid, nullptr, 0), exporter.pid);
}

} // namespace

// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// IPC where pidfd_getfd is refused (issue 17): the exporter's fd server
// passes the fd over a Unix socket (utils/util_fd_socket.h). Each case runs
// for both providers (the Level Zero provider serves its handles' fds
// itself; the emulated libcuda serves its own), with real processes:
//
// - consumers under a seccomp filter that makes pidfd_getfd fail with EPERM
//   or ENOSYS open, read the exporter's data and close;
// - 1,000 open/close cycles through the socket only, fds at baseline in
//   both processes;
// - a consumer of another uid is refused (NOT_SUPPORTED), one the
//   exporter's allow-list names opens (root: setuid in the child);
// - an exporter killed while a consumer waits for its answer: a clear error,
//   no hang (the consumer is seen blocked in recvmsg before the kill);
// - put (Level Zero) and free revoke the fd;
// - 8 threads in each of 2 consumer processes open at once;
// - malformed requests on the exporter's socket are refused, an idle
//   connection blocks nobody, and the server stays up.
//
// Child roles take "NAME=value" arguments, set in the child before the
// library or a driver reads them (no setenv around a start).

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern "C" {
#include "ipc_data.h"
}

#include "rel_child.h"

namespace {

constexpr size_t kSize = 64 * 1024;
constexpr unsigned kSeed = 7;
constexpr uint32_t kNobody = 65534;

struct Shared {
    RelIpcData data[2];
};

// What a consumer reports.
struct Outcome {
    int32_t result;
    int32_t code;
    int32_t fds_delta; // open fds after minus before (cycles)
    int32_t failures;  // failed checks (threads)
    char message[512];
};

// Applies the child's "NAME=value" arguments; "seccomp=eperm|enosys" makes
// pidfd_getfd fail so; "uid=N" becomes that user (root only).
bool ApplyArgs(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        size_t eq = a.find('=');
        if (eq == std::string::npos) {
            return false;
        }
        std::string name = a.substr(0, eq), value = a.substr(eq + 1);
        if (name == "seccomp") {
            if (umf_test_refuse_syscall(
                    SYS_pidfd_getfd, value == "eperm" ? EPERM : ENOSYS) != 0) {
                return false;
            }
        } else if (name == "uid") {
            uid_t uid = static_cast<uid_t>(std::atoi(value.c_str()));
            if (setgid(uid) != 0 || setuid(uid) != 0) {
                return false;
            }
        } else if (setenv(name.c_str(), value.c_str(), 1) != 0) {
            return false;
        }
    }
    return true;
}

// argv: kind, count (1 or 2), NAME=value... Allocates `count` allocations
// of kSize with pattern kSeed + i and sends their IPC data. Then per byte:
// 'c' sends its open fd count ('w' + an int: once it is that many), 'p' puts
// handle 0, 'f' puts and frees allocation 0 (each answered with 'k'); 'q' or
// the end frees all, exits.
UMF_TEST_CHILD(fds_producer) {
    if (argc < 2 || !ApplyArgs(argc - 2, argv + 2)) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    int count = std::atoi(argv[1]);
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    if (h == nullptr || count < 1 || count > 2) {
        return 101;
    }
    void *p[2] = {};
    bool put[2] = {};
    Shared s = {};
    for (int i = 0; i < count; i++) {
        s.data[i].size = sizeof(umf_ipc_data_t);
        if (umfMemoryProviderAlloc(h, kSize, 0, &p[i]) != UMF_RESULT_SUCCESS ||
            !umf_test_gpu_fill(g, nullptr, p[i], kSize,
                               kSeed + static_cast<unsigned>(i)) ||
            umfMemoryProviderGetIPCHandle(h, p[i], kSize, s.data[i].bytes) !=
                UMF_RESULT_SUCCESS) {
            return 102;
        }
    }
    if (umf_test_send(sock, &s, sizeof(s)) != 0) {
        return 103;
    }
    int status = 0;
    char cmd = 0;
    while (status == 0 && umf_test_recv(sock, &cmd, 1) == 0 && cmd != 'q') {
        if (cmd == 'c' || cmd == 'w') {
            // 'w' + a count: until the open fds are that many, or a while.
            // The server thread closes a connection after the consumer got
            // its answer: a transient fd, where a leaked one stays.
            int want = -1;
            if (cmd == 'w' && umf_test_recv(sock, &want, sizeof(want)) != 0) {
                status = 108;
                continue;
            }
            int fds = cmd == 'w' ? umf_test_count_open_fds_settled(want, 5000)
                                 : umf_test_count_open_fds();
            status = umf_test_send(sock, &fds, sizeof(fds)) == 0 ? 0 : 104;
            continue;
        }
        if ((cmd == 'p' || cmd == 'f') && !put[0]) {
            put[0] = umfMemoryProviderPutIPCHandle(h, s.data[0].bytes) ==
                     UMF_RESULT_SUCCESS;
            status = put[0] ? 0 : 105;
        }
        if (cmd == 'f' && p[0] != nullptr) {
            status = umfMemoryProviderFree(h, p[0], kSize) == UMF_RESULT_SUCCESS
                         ? status
                         : 106;
            p[0] = nullptr;
        }
        if (status == 0 && umf_test_send(sock, "k", 1) != 0) {
            status = 107;
        }
    }
    for (int i = 0; i < count; i++) {
        if (p[i] != nullptr) {
            if (!put[i]) {
                umfMemoryProviderPutIPCHandle(h, s.data[i].bytes);
            }
            umfMemoryProviderFree(h, p[i], kSize);
        }
    }
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return status;
}

// One open of `d`: its data checked, closed. The result, or -1 for a
// wrong pattern.
int OpenCheckClose(const umf_test_gpu_t *g, umf_memory_provider_handle_t h,
                   RelIpcData &d, unsigned seed) {
    void *p = nullptr;
    umf_result_t ret = umfMemoryProviderOpenIPCHandle(h, d.bytes, &p);
    if (ret != UMF_RESULT_SUCCESS) {
        return ret;
    }
    bool ok = umf_test_gpu_check(g, nullptr, p, kSize, seed);
    ret = umfMemoryProviderCloseIPCHandle(h, p, kSize);
    return !ok ? -1 : ret;
}

// argv: kind, mode, NAME=value... Receives a Shared, then:
//   open     one open, check, close
//   cycles   1000 of them; fds_delta = open fds after - before
//   threads  8 threads x 25 opens of allocations 0 and 1 in turn
// and sends the Outcome.
UMF_TEST_CHILD(fds_consumer) {
    if (argc < 2 || !ApplyArgs(argc - 2, argv + 2)) {
        return 100;
    }
    const umf_test_gpu_t *g =
        umf_test_gpu(static_cast<umf_test_gpu_kind_t>(std::atoi(argv[0])));
    std::string mode = argv[1];
    umf_memory_provider_handle_t h =
        g->why == nullptr ? gpu_provider_or_null(g) : nullptr;
    Shared s;
    if (h == nullptr || umf_test_recv(sock, &s, sizeof(s)) != 0) {
        return 101;
    }
    Outcome o = {};
    if (mode == "open") {
        o.result = OpenCheckClose(g, h, s.data[0], kSeed);
    } else if (mode == "cycles") {
        // A first cycle makes what stays for the process (driver state,
        // the log's buffers), then the baseline.
        o.result = OpenCheckClose(g, h, s.data[0], kSeed);
        int before = umf_test_count_open_fds();
        for (int i = 0; i < 1000 && o.result == UMF_RESULT_SUCCESS; i++) {
            void *p = nullptr;
            o.result = umfMemoryProviderOpenIPCHandle(h, s.data[0].bytes, &p);
            if (o.result == UMF_RESULT_SUCCESS) {
                o.result = umfMemoryProviderCloseIPCHandle(h, p, kSize);
            }
        }
        if (o.result == UMF_RESULT_SUCCESS) {
            o.result = OpenCheckClose(g, h, s.data[0], kSeed);
        }
        o.fds_delta = umf_test_count_open_fds() - before;
    } else if (mode == "threads") {
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; t++) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 25; i++) {
                    int k = (t + i) % 2;
                    if (OpenCheckClose(g, h, s.data[k],
                                       kSeed + static_cast<unsigned>(k)) !=
                        UMF_RESULT_SUCCESS) {
                        failures++;
                    }
                }
            });
        }
        for (auto &t : threads) {
            t.join();
        }
        o.failures = failures.load();
    } else {
        return 102;
    }
    const char *message = nullptr;
    umfMemoryProviderGetLastNativeError(h, &message, &o.code);
    std::snprintf(o.message, sizeof(o.message), "%s",
                  message != nullptr ? message : "");
    umfMemoryProviderDestroy(h);
    umf_test_gpu_release_all();
    return umf_test_send(sock, &o, sizeof(o)) == 0 ? 0 : 103;
}

std::string KindArg(umf_test_gpu_kind_t kind) {
    return std::to_string(static_cast<int>(kind));
}

// The role's arguments: the kind, `first`, then the environment.
std::vector<std::string> RoleArgs(umf_test_gpu_kind_t kind,
                                  const std::string &first,
                                  const std::vector<std::string> &env) {
    std::vector<std::string> args = {KindArg(kind), first};
    args.insert(args.end(), env.begin(), env.end());
    return args;
}

struct Producer : RelRole {
    Shared s{};

    bool Start(umf_test_gpu_kind_t kind, int count,
               const std::vector<std::string> &env = {}) {
        return RelRole::Start("fds_producer",
                              RoleArgs(kind, std::to_string(count), env)) &&
               umf_test_recv(child.sock, &s, sizeof(s)) == 0;
    }
    bool Command(char c) {
        char k = 0;
        return umf_test_send(child.sock, &c, 1) == 0 &&
               umf_test_recv(child.sock, &k, 1) == 0 && k == 'k';
    }
    int Fds() {
        int fds = -1;
        if (umf_test_send(child.sock, "c", 1) != 0 ||
            umf_test_recv(child.sock, &fds, sizeof(fds)) != 0) {
            return -1;
        }
        return fds;
    }
    // The open fds once they are `want` (or the count after a while).
    int FdsBackTo(int want) {
        int fds = -1;
        if (umf_test_send(child.sock, "w", 1) != 0 ||
            umf_test_send(child.sock, &want, sizeof(want)) != 0 ||
            umf_test_recv(child.sock, &fds, sizeof(fds)) != 0) {
            return -1;
        }
        return fds;
    }
};

// A consumer sends one Outcome and exits: it needs no 'q'.
struct Consumer : RelRole {
    bool Start(umf_test_gpu_kind_t kind, const char *mode, const Shared &s,
               const std::vector<std::string> &env) {
        return RelRole::Start("fds_consumer", RoleArgs(kind, mode, env)) &&
               umf_test_send(child.sock, &s, sizeof(s)) == 0;
    }
    // The Outcome, and the child's exit status in *status.
    Outcome Finish(int *status) {
        Outcome o = {};
        o.result = -100;
        if (umf_test_recv(child.sock, &o, sizeof(o)) != 0) {
            o.result = -101;
        }
        *status = umf_test_child_wait(&child);
        started = false;
        return o;
    }
};

Outcome RunConsumer(umf_test_gpu_kind_t kind, const char *mode, const Shared &s,
                    const std::vector<std::string> &env) {
    Consumer c;
    if (!c.Start(kind, mode, s, env)) {
        ADD_FAILURE() << "the consumer did not start";
        return Outcome{};
    }
    int status = -1;
    Outcome o = c.Finish(&status);
    EXPECT_EQ(status, 0);
    return o;
}

const char *kSocketOnly = "UMF_GPU_IPC_FD_TRANSFER=socket";

// Where the producer of `d` serves its fds: the record's name (Level
// Zero), or the name the emulated libcuda derives from its handle (pid at
// byte 16, flags at 14, the exporter's identity at 56; mock_ipc.c).
bool ServerAddress(umf_test_gpu_kind_t kind, const RelIpcData &d,
                   sockaddr_un *addr, socklen_t *len) {
    umf_ipc_data_t r;
    std::memcpy(&r, d.bytes, sizeof(r));
    std::string name;
    if (kind == UMF_TEST_GPU_LEVEL_ZERO) {
        if (r.socket_kind != UMF_IPC_SOCKET_ABSTRACT) {
            return false;
        }
        name.assign(r.socket_name, r.socket_len);
    } else {
        uint32_t pid;
        uint64_t ident;
        std::memcpy(&pid, r.handle + 16, sizeof(pid));
        std::memcpy(&ident, r.handle + 56, sizeof(ident));
        if ((r.handle[14] & 2) == 0) {
            return false;
        }
        char buf[80];
        std::snprintf(buf, sizeof(buf), "umf-gpu-fd.%u.%016llx.cu", pid,
                      static_cast<unsigned long long>(ident));
        name = buf;
    }
    std::memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    std::memcpy(addr->sun_path + 1, name.data(), name.size());
    *len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 +
                                  name.size());
    return true;
}

// The system call a thread of process `pid` is blocked in, or -1.
long BlockedIn(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
    FILE *f = std::fopen(path, "r");
    if (f == nullptr) {
        return -1;
    }
    long nr = -1;
    if (std::fscanf(f, "%ld", &nr) != 1) {
        nr = -1;
    }
    std::fclose(f);
    return nr;
}

class IpcFdServer : public ::testing::TestWithParam<umf_test_gpu_kind_t> {
  protected:
    void SetUp() override {
        g_ = umf_test_gpu(GetParam());
        GPU_REQUIRE_EMULATED(g_);
    }
    // A producer (with `producer_env`) shares one allocation; a consumer
    // (with `consumer_env`) opens it, reads it, closes it.
    void ExpectOpens(const std::vector<std::string> &consumer_env,
                     const std::vector<std::string> &producer_env = {}) {
        Producer prod;
        ASSERT_TRUE(prod.Start(GetParam(), 1, producer_env));
        Outcome o = RunConsumer(GetParam(), "open", prod.s, consumer_env);
        EXPECT_EQ(o.result, UMF_RESULT_SUCCESS) << o.message;
        EXPECT_EQ(prod.Stop(), 0);
    }
    const umf_test_gpu_t *g_ = nullptr;
};

TEST_P(IpcFdServer,
       AConsumerWhosePidfdGetfdFailsWithEpermOpensThroughTheSocket) {
    ExpectOpens({"seccomp=eperm"});
}

TEST_P(IpcFdServer,
       AConsumerWhosePidfdGetfdFailsWithEnosysOpensThroughTheSocket) {
    ExpectOpens({"seccomp=enosys"});
}

TEST_P(IpcFdServer, AThousandCyclesThroughTheSocketLeaveTheFdsAtBaseline) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    int before = prod.Fds();
    ASSERT_GT(before, 0);
    Outcome o = RunConsumer(GetParam(), "cycles", prod.s,
                            {kSocketOnly, "seccomp=eperm"});
    EXPECT_EQ(o.result, UMF_RESULT_SUCCESS) << o.message;
    EXPECT_EQ(o.fds_delta, 0);
    EXPECT_EQ(prod.FdsBackTo(before), before);
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcFdServer, AConsumerOfAnotherUidIsRefused) {
    if (geteuid() != 0) {
        GTEST_SKIP() << "needs root to run a consumer as another user";
    }
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    Outcome o = RunConsumer(GetParam(), "open", prod.s,
                            {"uid=" + std::to_string(kNobody)});
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_NOT_SUPPORTED) << o.message;
    // The reason: the Level Zero provider has the server's answer; the CUDA
    // provider only the driver's code, and says what it may mean.
    EXPECT_NE(std::string(o.message).find(GetParam() == UMF_TEST_GPU_LEVEL_ZERO
                                              ? "not allowed"
                                              : "fd server"),
              std::string::npos)
        << o.message;
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcFdServer, AConsumerOfAnAllowedUidOpens) {
    if (geteuid() != 0) {
        GTEST_SKIP() << "needs root to run a consumer as another user";
    }
    ExpectOpens({"uid=" + std::to_string(kNobody)},
                {"UMF_GPU_IPC_ALLOWED_UIDS=0," + std::to_string(kNobody)});
}

// A socket file in a directory both sides name (another network namespace
// could share it); removed when the exporter's server stops.
TEST_P(IpcFdServer, ASocketFileServesWhereTheDirectoryIsShared) {
    char dir[] = "/tmp/umf-fds-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string env = std::string("UMF_GPU_IPC_SOCKET_DIR=") + dir;
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1, {env}));
    if (GetParam() == UMF_TEST_GPU_LEVEL_ZERO) {
        umf_ipc_data_t r;
        std::memcpy(&r, prod.s.data[0].bytes, sizeof(r));
        EXPECT_EQ(r.socket_kind, UMF_IPC_SOCKET_PATH);
        EXPECT_EQ(std::string(r.socket_name, r.socket_len)
                      .rfind(std::string(dir) + "/", 0),
                  0u);
    }
    Outcome o =
        RunConsumer(GetParam(), "open", prod.s, {kSocketOnly, env.c_str()});
    EXPECT_EQ(o.result, UMF_RESULT_SUCCESS) << o.message;
    EXPECT_EQ(prod.Stop(), 0);
    EXPECT_EQ(rmdir(dir), 0) << "the socket file stayed: " << strerror(errno);
}

TEST_P(IpcFdServer, AnExporterKilledWhileAConsumerWaitsIsAClearError) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    // Stopped, the exporter's server answers nobody: the consumer's
    // connection is made (the kernel queues it) and its request waits.
    ASSERT_EQ(kill(prod.child.pid, SIGSTOP), 0);
    Consumer c;
    ASSERT_TRUE(c.Start(GetParam(), "open", prod.s, {kSocketOnly}));
    // Until the consumer waits for the answer (or /proc does not say).
    for (int i = 0;; i++) {
        long nr = BlockedIn(c.child.pid);
        if (nr == SYS_recvmsg || (nr < 0 && i > 1000)) {
            break;
        }
        usleep(1000);
    }
    ASSERT_EQ(kill(prod.child.pid, SIGKILL), 0);
    int pstatus = umf_test_child_wait(&prod.child);
    prod.started = false;
    EXPECT_EQ(pstatus, 128 + SIGKILL);
    int status = -1;
    Outcome o = c.Finish(&status);
    EXPECT_EQ(status, 0);
    // The exporter has exited: refused as stale, not a timeout.
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_INVALID_ARGUMENT) << o.message;
}

TEST_P(IpcFdServer, PutRevokesTheFd) {
    if (GetParam() == UMF_TEST_GPU_CUDA) {
        GTEST_SKIP() << "CUDA has no put: a cuIpcGetMemHandle handle is valid "
                        "until cuMemFree (FreeRevokesTheFd)";
    }
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    ASSERT_TRUE(prod.Command('p'));
    Outcome o = RunConsumer(GetParam(), "open", prod.s, {kSocketOnly});
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_INVALID_ARGUMENT) << o.message;
    EXPECT_NE(std::string(o.message).find("not exported"), std::string::npos)
        << o.message;
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcFdServer, FreeRevokesTheFd) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    ASSERT_TRUE(prod.Command('f'));
    Outcome o = RunConsumer(GetParam(), "open", prod.s, {kSocketOnly});
    EXPECT_EQ(o.result, UMF_RESULT_ERROR_INVALID_ARGUMENT) << o.message;
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcFdServer, EightThreadsInEachOfTwoConsumersOpenAtOnce) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 2));
    Consumer a, b;
    ASSERT_TRUE(a.Start(GetParam(), "threads", prod.s, {kSocketOnly}));
    ASSERT_TRUE(b.Start(GetParam(), "threads", prod.s, {kSocketOnly}));
    int sa = -1, sb = -1;
    Outcome oa = a.Finish(&sa), ob = b.Finish(&sb);
    EXPECT_EQ(sa, 0);
    EXPECT_EQ(sb, 0);
    EXPECT_EQ(oa.failures, 0) << oa.message;
    EXPECT_EQ(ob.failures, 0) << ob.message;
    EXPECT_EQ(prod.Stop(), 0);
}

TEST_P(IpcFdServer, MalformedRequestsAreRefusedAndTheServerStaysUp) {
    Producer prod;
    ASSERT_TRUE(prod.Start(GetParam(), 1));
    sockaddr_un addr;
    socklen_t len = 0;
    ASSERT_TRUE(ServerAddress(GetParam(), prod.s.data[0], &addr, &len));
    auto connected = [&] {
        int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        EXPECT_GE(s, 0);
        EXPECT_EQ(connect(s, reinterpret_cast<sockaddr *>(&addr), len), 0)
            << strerror(errno);
        return s;
    };
    // An idle client, held through the rest: it blocks nobody.
    int idle = connected();
    // Too short, too long, garbage of the right size, and one that passes
    // an fd: each answered with a refusal (a 16-byte reply, no fd).
    std::vector<std::vector<unsigned char>> bad = {
        std::vector<unsigned char>(3, 0xab),
        std::vector<unsigned char>(4096, 0x5a),
        std::vector<unsigned char>(56, 0xff),
    };
    for (size_t i = 0; i <= bad.size(); i++) {
        int s = connected();
        std::vector<unsigned char> msg = i < bad.size() ? bad[i] : bad[2];
        if (i < bad.size()) {
            ASSERT_EQ(send(s, msg.data(), msg.size(), MSG_NOSIGNAL),
                      static_cast<ssize_t>(msg.size()));
        } else {
            int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
            ASSERT_GE(fd, 0);
            iovec iov = {msg.data(), msg.size()};
            union {
                cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int))];
            } control = {};
            msghdr m = {};
            m.msg_iov = &iov;
            m.msg_iovlen = 1;
            m.msg_control = control.buf;
            m.msg_controllen = sizeof(control.buf);
            cmsghdr *c = CMSG_FIRSTHDR(&m);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
            ASSERT_EQ(sendmsg(s, &m, MSG_NOSIGNAL),
                      static_cast<ssize_t>(msg.size()));
            close(fd);
        }
        unsigned char reply[64];
        union {
            cmsghdr h;
            char buf[CMSG_SPACE(4 * sizeof(int))];
        } control = {};
        iovec iov = {reply, sizeof(reply)};
        msghdr m = {};
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        m.msg_control = control.buf;
        m.msg_controllen = sizeof(control.buf);
        EXPECT_EQ(recvmsg(s, &m, MSG_CMSG_CLOEXEC), 16) << "case " << i;
        EXPECT_EQ(CMSG_FIRSTHDR(&m), nullptr) << "case " << i << ": an fd";
        uint32_t status = 0;
        std::memcpy(&status, reply + 4, sizeof(status));
        EXPECT_NE(status, 0u) << "case " << i;
        close(s);
    }
    // Still serving, with the idle client connected.
    Outcome o =
        RunConsumer(GetParam(), "open", prod.s, {kSocketOnly, "seccomp=eperm"});
    EXPECT_EQ(o.result, UMF_RESULT_SUCCESS) << o.message;
    close(idle);
    EXPECT_EQ(prod.Stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(Providers, IpcFdServer,
                         ::testing::ValuesIn(gpu_kinds()), gpu_kind_param_name);

} // namespace

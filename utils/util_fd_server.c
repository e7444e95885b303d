// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fd server: the exporter's side of util_fd_socket.h. Its export table,
// the thread that accepts consumers and answers their one request each, and
// the checks of a request.
//
// Trust rule: nothing a peer sends is believed. A peer is whoever connects;
// its credentials (SO_PEERCRED, from the kernel) decide which uids it may
// be answered for, and its request is only a key: the server sends a file
// only when the request names this process and a live export of it, and
// then only a duplicate, made for the answer, of the fd it exported, checked
// to be the file exported. Every socket is non-blocking, one message per
// connection, so that no peer can make the thread wait.

#include "util_fd_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util_fd_settings.h"
#include "util_fd_wire.h"

// ---- The server's state -----------------------------------------------------

#define BUCKETS 256u
#define MAX_LISTENERS 4
#define MAX_OWNERS 64

typedef struct entry_t {
    struct entry_t *next_base, *next_id; // chains by (owner, base) and id
    uintptr_t owner;
    uint64_t base, alloc_id, dev, ino;
    int remote_fd; // the exporter's fd number, as recorded (this process's)
    uint64_t refs;
    size_t uid_count;
    uint32_t uids[UMF_FD_SERVER_MAX_UIDS];
} entry_t;

typedef struct listener_t {
    int fd;
    bool path, derived;
    char tag[9];
    umf_fd_socket_name_t name;
} listener_t;

// A client held until its request arrives: accepted with nothing to read.
typedef struct client_t {
    int fd;
    uint32_t uid;             // SO_PEERCRED
    pid_t pid;                // SO_PEERCRED: its pid here (0: not visible)
    struct timespec deadline; // its request is due by then; the earliest is
                              // the oldest client
} client_t;

// The held clients, in no order.
typedef struct pool_t {
    client_t c[UMF_FD_SERVER_MAX_CLIENTS];
    size_t count;
} pool_t;

// Connections accepted per look at the listeners, between looks at the held
// clients: a flood of connections cannot keep the thread from them.
#define ACCEPT_BATCH 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stopped = PTHREAD_COND_INITIALIZER; // stopping ended
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
// Nonzero while anything is exported: the one load umf_fd_server_unexport
// costs when nothing is.
static _Atomic size_t live_exports;
// A bit per hash of (owner, base), set for every entry and cleared when the
// last entry goes: a free of an allocation that was never served (every
// free of a provider that exported anything calls umf_fd_server_revoke)
// costs one load, not the lock. Set and cleared under the lock; an export
// happens before the free of its allocation, so the free sees its bit.
#define SERVED_BITS 4096u
static _Atomic uint64_t served[SERVED_BITS / 64];
static entry_t *by_base[BUCKETS], *by_id[BUCKETS];
static listener_t listeners[MAX_LISTENERS];
static size_t listener_count;
static uintptr_t owners[MAX_OWNERS];
static size_t owner_count;
static bool running, stopping;
static pthread_t thread;
static int wake_fd = -1;

static uint64_t mix64(uint64_t v) {
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return v;
}

static unsigned hash64(uint64_t v) {
    return (unsigned)(mix64(v) & (BUCKETS - 1));
}

static uint64_t base_hash(uintptr_t owner, uint64_t base) {
    return mix64(base ^ ((uint64_t)owner * 0x9e3779b97f4a7c15ull));
}

static unsigned base_bucket(uintptr_t owner, uint64_t base) {
    return (unsigned)(base_hash(owner, base) & (BUCKETS - 1));
}

// The bit of (owner, base) in `served`; the bucket's bits are its low ones.
static unsigned served_bit(uintptr_t owner, uint64_t base) {
    return (unsigned)(base_hash(owner, base) & (SERVED_BITS - 1));
}

static bool maybe_served(uintptr_t owner, uint64_t base) {
    unsigned bit = served_bit(owner, base);
    return (atomic_load_explicit(&served[bit / 64], memory_order_relaxed) &
            (1ull << (bit % 64))) != 0;
}

static void unlink_entry(entry_t *e) {
    for (entry_t **p = &by_base[base_bucket(e->owner, e->base)]; *p != NULL;
         p = &(*p)->next_base) {
        if (*p == e) {
            *p = e->next_base;
            break;
        }
    }
    for (entry_t **p = &by_id[hash64(e->alloc_id)]; *p != NULL;
         p = &(*p)->next_id) {
        if (*p == e) {
            *p = e->next_id;
            break;
        }
    }
    free(e);
    if (atomic_fetch_sub_explicit(&live_exports, 1, memory_order_relaxed) ==
        1) {
        for (size_t i = 0; i < SERVED_BITS / 64; i++) {
            atomic_store_explicit(&served[i], 0, memory_order_relaxed);
        }
    }
}

// Every entry, in any order, for fn (which may unlink it). Under the lock.
static void each_entry(bool (*pick)(const entry_t *, uintptr_t),
                       uintptr_t owner) {
    for (unsigned b = 0; b < BUCKETS; b++) {
        entry_t *e = by_base[b];
        while (e != NULL) {
            entry_t *next = e->next_base;
            if (pick(e, owner)) {
                unlink_entry(e);
            }
            e = next;
        }
    }
}

static bool pick_all(const entry_t *e, uintptr_t owner) {
    (void)e, (void)owner;
    return true;
}

static bool pick_owner(const entry_t *e, uintptr_t owner) {
    return e->owner == owner;
}

static void close_listeners(bool unlink_paths) {
    for (size_t i = 0; i < listener_count; i++) {
        close(listeners[i].fd);
        if (unlink_paths && listeners[i].path) {
            char path[UMF_FD_SOCKET_NAME_MAX + 1];
            memcpy(path, listeners[i].name.name, listeners[i].name.len);
            path[listeners[i].name.len] = '\0';
            (void)unlink(path);
        }
    }
    listener_count = 0;
}

// In the child of a fork: no thread, no socket, no export of the parent's.
// The sockets' names stay the parent's (abstract names go with the last
// close; paths are the parent's to remove).
static void fork_prepare(void) {
    pthread_mutex_lock(&lock);
}
static void fork_parent(void) {
    pthread_mutex_unlock(&lock);
}
static void fork_child(void) {
    pthread_mutex_unlock(&lock);
    pthread_cond_init(&stopped, NULL);
    each_entry(pick_all, 0);
    close_listeners(false);
    if (wake_fd >= 0) {
        close(wake_fd);
        wake_fd = -1;
    }
    owner_count = 0;
    running = stopping = false;
}

static void register_fork(void) {
    (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

// ---- Serving ----------------------------------------------------------------

static void deadline_in(struct timespec *t, long ms) {
    clock_gettime(CLOCK_MONOTONIC, t);
    t->tv_sec += ms / 1000;
    t->tv_nsec += (ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static long ms_until(const struct timespec *t, const struct timespec *now) {
    long ms = (long)(t->tv_sec - now->tv_sec) * 1000 +
              (t->tv_nsec - now->tv_nsec) / 1000000L;
    return ms < 0 ? 0 : ms;
}

static bool uid_allowed(const entry_t *e, uint32_t uid) {
    for (size_t i = 0; i < e->uid_count; i++) {
        if (e->uids[i] == uid) {
            return true;
        }
    }
    return false;
}

// Whether the request names this process: its pid, and each part of its
// identity that the request gives; at least one part where we know one.
static bool names_us(const umf_fd_wire_request_t *r) {
    uint64_t ino = umf_proc_self_pidfs_ino();
    uint64_t start = umf_proc_self_start_time();
    if (r->pid != (int32_t)getpid() ||
        (r->pidfs_ino != 0 && r->pidfs_ino != ino) ||
        (r->start_time != 0 && r->start_time != start)) {
        return false;
    }
    return r->pidfs_ino != 0 || r->start_time != 0 || (ino == 0 && start == 0);
}

static void reply(int fd, umf_fd_wire_status_t status, uint32_t uid,
                  int send_fd) {
    umf_fd_wire_reply_t rep = {UMF_FD_WIRE_MAGIC, (uint32_t)status, uid, 0};
    struct iovec iov = {&rep, sizeof(rep)};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (send_fd >= 0) {
        memset(&control, 0, sizeof(control));
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof(control.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &send_fd, sizeof(int));
    }
    // The socket's buffer is empty: this does not block, and if it would,
    // the client is dropped rather than waited for.
    (void)sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
}

// Sends the file of export `e`: a duplicate of the exporter's fd, made
// now, if it is still the file exported (the exporter closes its fd only
// after revoking, which takes the lock held here; a number closed and reused
// without a revoke names another file and is not sent). Under the lock.
static void send_export_locked(const client_t *c, const entry_t *e) {
    int fd = fcntl(e->remote_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        // EBADF: closed without a revoke; EMFILE: no fd left here.
        reply(c->fd, errno == EBADF ? UMF_FD_WIRE_REVOKED : UMF_FD_WIRE_FAILED,
              c->uid, -1);
        return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != e->dev ||
        (uint64_t)st.st_ino != e->ino) {
        reply(c->fd, UMF_FD_WIRE_REVOKED, c->uid, -1);
    } else {
        reply(c->fd, UMF_FD_WIRE_OK, c->uid, fd);
    }
    close(fd);
}

// Answers the one request of a client whose socket is readable. Returns
// false while the request has not arrived (the client stays).
static bool serve_client(const client_t *c) {
    umf_fd_wire_request_t req;
    char extra[sizeof(req) + 1]; // a longer message is malformed
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(4 * sizeof(int))];
    } control;
    struct iovec iov = {extra, sizeof(extra)};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    ssize_t n = recvmsg(c->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return false;
    }
    // Fds a client passed are closed unread (the kernel closed any that
    // did not fit).
    if (n >= 0) {
        (void)umf_fd_wire_fds(&msg, 0);
    }
    if (n <= 0) {
        return true; // gone, or an error: nothing to answer
    }
    memcpy(&req, extra, (size_t)n < sizeof(req) ? (size_t)n : sizeof(req));
    if ((size_t)n != sizeof(req) || (msg.msg_flags & MSG_TRUNC) != 0 ||
        req.magic != UMF_FD_WIRE_MAGIC || req.version != UMF_FD_WIRE_VERSION ||
        req.size != sizeof(req) || req.fd < 0 || req.ino == 0) {
        reply(c->fd, UMF_FD_WIRE_MALFORMED, c->uid, -1);
        return true;
    }
    if (!names_us(&req)) {
        reply(c->fd, UMF_FD_WIRE_NOT_EXPORTER, c->uid, -1);
        return true;
    }
    pthread_mutex_lock(&lock);
    entry_t *e = by_id[hash64(req.alloc_id)];
    while (e != NULL &&
           (e->alloc_id != req.alloc_id || e->remote_fd != req.fd ||
            e->ino != req.ino || (req.dev != 0 && e->dev != req.dev))) {
        e = e->next_id;
    }
    if (e == NULL) {
        reply(c->fd, UMF_FD_WIRE_REVOKED, c->uid, -1);
    } else if (!uid_allowed(e, c->uid)) {
        reply(c->fd, UMF_FD_WIRE_UID_REFUSED, c->uid, -1);
    } else {
        send_export_locked(c, e);
    }
    pthread_mutex_unlock(&lock);
    return true;
}

static bool earlier(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec ||
           (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

// Closes held client i, telling it `status` first unless that is OK (it was
// answered), and takes it out of the pool (the last client moves to i).
static void drop_client(pool_t *pool, size_t i, umf_fd_wire_status_t status) {
    client_t *c = &pool->c[i];
    if (status != UMF_FD_WIRE_OK) {
        reply(c->fd, status, c->uid, -1);
    }
    close(c->fd);
    *c = pool->c[--pool->count];
}

// Frees held client i's slot for a newer one: a request it sent meanwhile
// is answered (never dropped unread); a client that sent nothing is told
// it was dropped (BUSY: it may try again).
static void make_room(pool_t *pool, size_t i) {
    drop_client(pool, i,
                serve_client(&pool->c[i]) ? UMF_FD_WIRE_OK : UMF_FD_WIRE_BUSY);
}

// Holds client `c`, which sent nothing yet. Room is made, if needed, by the
// oldest client of the same process when that process holds its share
// (UMF_FD_SERVER_MAX_PER_PEER), else by the oldest of all when the pool is
// full: so one process, however fast it connects, holds at most its share,
// and evicts only its own.
static void hold(pool_t *pool, const client_t *c) {
    size_t same = 0, oldest_same = 0, oldest = 0;
    for (size_t i = 0; i < pool->count; i++) {
        const client_t *o = &pool->c[i];
        if (o->pid == c->pid &&
            (same++ == 0 ||
             earlier(&o->deadline, &pool->c[oldest_same].deadline))) {
            oldest_same = i;
        }
        if (earlier(&o->deadline, &pool->c[oldest].deadline)) {
            oldest = i;
        }
    }
    if (same >= UMF_FD_SERVER_MAX_PER_PEER) {
        make_room(pool, oldest_same);
    } else if (pool->count == UMF_FD_SERVER_MAX_CLIENTS) {
        make_room(pool, oldest);
    }
    pool->c[pool->count++] = *c;
}

// New clients, at most ACCEPT_BATCH: each accepted with its credentials,
// and its request, when it is already waiting (a consumer sends it right
// after connecting), answered at once; only a client that sent nothing yet
// is held.
static void accept_clients(int listen_fd, pool_t *pool) {
    for (unsigned k = 0; k < ACCEPT_BATCH; k++) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return; // EAGAIN, or out of fds: the client retries or times out
        }
        struct ucred cred;
        socklen_t len = sizeof(cred);
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
            close(fd);
            continue;
        }
        client_t c = {.fd = fd, .uid = (uint32_t)cred.uid, .pid = cred.pid};
        if (serve_client(&c)) {
            close(fd);
            continue;
        }
        deadline_in(&c.deadline, UMF_FD_SERVER_CLIENT_TIMEOUT_MS);
        hold(pool, &c);
    }
}

static void *serve(void *arg) {
    (void)arg;
    pool_t pool = {.count = 0};
    struct pollfd pfd[1 + MAX_LISTENERS + UMF_FD_SERVER_MAX_CLIENTS];
    for (;;) {
        pthread_mutex_lock(&lock);
        bool stop = stopping;
        size_t nl = listener_count;
        pfd[0] = (struct pollfd){.fd = wake_fd, .events = POLLIN};
        for (size_t i = 0; i < nl; i++) {
            pfd[1 + i] =
                (struct pollfd){.fd = listeners[i].fd, .events = POLLIN};
        }
        pthread_mutex_unlock(&lock);
        if (stop) {
            break;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long timeout = -1;
        for (size_t i = 0; i < pool.count; i++) {
            long ms = ms_until(&pool.c[i].deadline, &now);
            timeout = timeout < 0 || ms < timeout ? ms : timeout;
            pfd[1 + nl + i] =
                (struct pollfd){.fd = pool.c[i].fd, .events = POLLIN};
        }
        int ready = poll(pfd, 1 + nl + pool.count, (int)timeout);
        if (ready < 0) {
            continue; // EINTR
        }
        if (pfd[0].revents != 0) {
            uint64_t v;
            (void)read(wake_fd, &v, sizeof(v));
        }
        // Held clients first (their slots in pfd follow the listeners'),
        // from the last, so that a drop moves only a client already looked
        // at; then new ones.
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (size_t i = pool.count; i-- > 0;) {
            short ev = pfd[1 + nl + i].revents;
            if (((ev & POLLIN) && serve_client(&pool.c[i])) ||
                (!(ev & POLLIN) && (ev & (POLLHUP | POLLERR | POLLNVAL)))) {
                drop_client(&pool, i, UMF_FD_WIRE_OK);
            } else if (ms_until(&pool.c[i].deadline, &now) == 0) {
                drop_client(&pool, i, UMF_FD_WIRE_BUSY); // sent nothing
            }
        }
        for (size_t i = 0; i < nl; i++) {
            if (pfd[1 + i].revents & POLLIN) {
                accept_clients(pfd[1 + i].fd, &pool);
            }
        }
    }
    while (pool.count > 0) {
        drop_client(&pool, pool.count - 1, UMF_FD_WIRE_STOPPED);
    }
    return NULL;
}

static void wake(void) {
    uint64_t one = 1;
    if (wake_fd >= 0) {
        (void)write(wake_fd, &one, sizeof(one));
    }
}

// Starts the thread (after a stop in progress ended). Under the lock.
static int start_locked(void) {
    while (stopping) {
        pthread_cond_wait(&stopped, &lock);
    }
    if (running) {
        return 0;
    }
    pthread_once(&fork_once, register_fork);
    wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd < 0) {
        return errno;
    }
    stopping = false;
    // The thread must not take signals meant for the application's threads.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&thread, NULL, serve, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        close(wake_fd);
        wake_fd = -1;
        return err;
    }
    running = true;
    return 0;
}

// Stops the thread and closes everything; the lock is not held. With
// `if_unused`, only while no owner exports (one may have started exporting
// since the caller looked).
static void stop_server(bool if_unused) {
    pthread_mutex_lock(&lock);
    if (!running || stopping || (if_unused && owner_count > 0)) {
        pthread_mutex_unlock(&lock);
        return;
    }
    stopping = true;
    wake();
    pthread_t t = thread;
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    pthread_mutex_lock(&lock);
    each_entry(pick_all, 0);
    close_listeners(true);
    close(wake_fd);
    wake_fd = -1;
    running = stopping = false;
    owner_count = 0;
    pthread_cond_broadcast(&stopped);
    pthread_mutex_unlock(&lock);
}

// At exit (and unload): the thread stopped, path sockets removed.
__attribute__((destructor)) static void at_exit_stop(void) {
    stop_server(false);
}

// A listener for `dir` ("" abstract) and `tag` (NULL: a random name). Under
// the lock.
// The listener for `dir` and `tag` made already, or NULL. Under the lock.
static listener_t *find_listener(const char *dir, const char *tag) {
    bool path = dir[0] != '\0';
    for (size_t i = 0; i < listener_count; i++) {
        listener_t *l = &listeners[i];
        bool same_dir =
            path ? l->path && strncmp(l->name.name, dir, strlen(dir)) == 0 &&
                       l->name.name[strlen(dir)] == '/'
                 : !l->path;
        if (same_dir && l->derived == (tag != NULL) &&
            (tag == NULL || strcmp(l->tag, tag) == 0)) {
            return l;
        }
    }
    return NULL;
}

static int listener_for(const char *dir, const char *tag, listener_t **out) {
    bool path = dir[0] != '\0';
    if ((*out = find_listener(dir, tag)) != NULL) {
        return 0;
    }
    if (listener_count == MAX_LISTENERS) {
        return EMFILE;
    }
    if (strlen(dir) > UMF_FD_DIR_MAX || (path && dir[0] != '/')) {
        return strlen(dir) > UMF_FD_DIR_MAX ? ENAMETOOLONG : EINVAL;
    }
    listener_t *l = &listeners[listener_count];
    memset(l, 0, sizeof(*l));
    l->path = path;
    l->derived = tag != NULL;
    snprintf(l->tag, sizeof(l->tag), "%s", tag != NULL ? tag : "");
    int err = 0;
    for (int attempt = 0; attempt < 4; attempt++) {
        if (tag != NULL) {
            uint64_t ino = umf_proc_self_pidfs_ino();
            // the same identity a consumer reads from the driver's handle
            umf_fd_socket_derived_name(
                getpid(), ino != 0 ? ino : umf_proc_self_start_time(), tag,
                path, &l->name);
        } else {
            uint64_t r = 0;
            if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                r = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
                    (uint64_t)(uintptr_t)&r;
            }
            char s[256];
            snprintf(s, sizeof(s), "%s%s" UMF_FD_NAME_PREFIX "%ld.%016llx", dir,
                     path ? "/" : "", (long)getpid(), (unsigned long long)r);
            umf_fd_socket_set_name(
                &l->name, path ? UMF_FD_SOCKET_PATH : UMF_FD_SOCKET_ABSTRACT,
                s);
        }
        struct sockaddr_un addr;
        socklen_t len = umf_fd_wire_addr(&l->name, &addr);
        l->fd =
            socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (len == 0 || l->fd < 0) {
            err = len == 0 ? EINVAL : errno;
            if (l->fd >= 0) {
                close(l->fd);
            }
            return err;
        }
        if (bind(l->fd, (struct sockaddr *)&addr, len) == 0) {
            // Anyone may connect to a path, as to an abstract name: the
            // peer's credentials are the gate.
            if ((path && chmod(addr.sun_path, 0666) != 0) ||
                listen(l->fd, UMF_FD_SERVER_BACKLOG) != 0) {
                err = errno;
                close(l->fd);
                if (path) {
                    (void)unlink(addr.sun_path);
                }
                return err;
            }
            listener_count++;
            wake(); // the thread polls the new listener
            *out = l;
            return 0;
        }
        err = errno;
        close(l->fd);
        if (err != EADDRINUSE || tag != NULL) {
            break; // a derived name taken: someone squats it
        }
    }
    return err;
}

static bool owner_known(uintptr_t owner) {
    for (size_t i = 0; i < owner_count; i++) {
        if (owners[i] == owner) {
            return true;
        }
    }
    return false;
}

// The allow-list of `policy` (or the default) into e.
static void set_uids(entry_t *e, const umf_fd_serve_policy_t *policy) {
    const uint32_t *env_uids = NULL;
    size_t env_count = 0;
    if (policy->uid_count > 0) {
        e->uid_count = policy->uid_count;
        memcpy(e->uids, policy->uids, policy->uid_count * sizeof(uint32_t));
    } else if ((env_count = umf_fd_env_uids(&env_uids)) > 0) {
        e->uid_count = env_count;
        memcpy(e->uids, env_uids, env_count * sizeof(uint32_t));
    } else {
        e->uid_count = 1;
        e->uids[0] = (uint32_t)geteuid();
    }
}

// The export like `p` counts one more reference and takes p's allow-list;
// false if there is none. Under the lock.
static bool reexport_locked(const entry_t *p) {
    for (entry_t *o = by_base[base_bucket(p->owner, p->base)]; o != NULL;
         o = o->next_base) {
        if (o->owner == p->owner && o->base == p->base &&
            o->remote_fd == p->remote_fd && o->alloc_id == p->alloc_id &&
            o->ino == p->ino && o->dev == p->dev) {
            o->refs++;
            o->uid_count = p->uid_count;
            memcpy(o->uids, p->uids, sizeof(o->uids));
            return true;
        }
    }
    return false;
}

int umf_fd_server_export(uintptr_t owner, uint64_t base, uint64_t alloc_id,
                         int fd, const umf_fd_serve_policy_t *policy,
                         umf_fd_socket_name_t *name) {
    if (fd < 0 || policy == NULL || name == NULL ||
        policy->uid_count > UMF_FD_SERVER_MAX_UIDS ||
        (policy->uid_count > 0 && policy->uids == NULL)) {
        return EINVAL;
    }
    memset(name, 0, sizeof(*name));
    if (umf_fd_transfer_resolve(policy->transfer) == UMF_FD_TRANSFER_PIDFD) {
        return 0; // not served
    }
    const char *dir = policy->socket_dir != NULL && policy->socket_dir[0]
                          ? policy->socket_dir
                          : umf_fd_env_socket_dir();
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return errno;
    }
    entry_t proto = {.owner = owner,
                     .base = base,
                     .alloc_id = alloc_id,
                     .remote_fd = fd,
                     .dev = (uint64_t)st.st_dev,
                     .ino = (uint64_t)st.st_ino,
                     .refs = 1};
    set_uids(&proto, policy);
    // Exported again (a repeated get): one more reference, the latest
    // allow-list.
    pthread_mutex_lock(&lock);
    listener_t *l =
        running && !stopping ? find_listener(dir, policy->tag) : NULL;
    if (l != NULL && reexport_locked(&proto)) {
        *name = l->name;
        pthread_mutex_unlock(&lock);
        return 0;
    }
    pthread_mutex_unlock(&lock);
    entry_t *e = malloc(sizeof(*e));
    if (e == NULL) {
        return ENOMEM;
    }
    *e = proto;
    pthread_mutex_lock(&lock);
    int err = 0;
    if (!owner_known(owner) && owner_count == MAX_OWNERS) {
        err = EMFILE;
    }
    if (err == 0) {
        err = start_locked();
    }
    if (err == 0) {
        err = listener_for(dir, policy->tag, &l);
    }
    bool again = err == 0 && reexport_locked(&proto); // another thread's
    if (err != 0 || again) {
        // A server no owner uses is stopped again.
        bool unused = err != 0 && owner_count == 0 && running;
        if (again) {
            *name = l->name;
        }
        pthread_mutex_unlock(&lock);
        free(e);
        if (unused) {
            stop_server(true);
        }
        return err;
    }
    if (!owner_known(owner)) {
        owners[owner_count++] = owner;
    }
    *name = l->name;
    unsigned b = base_bucket(owner, base);
    e->next_base = by_base[b];
    by_base[b] = e;
    unsigned bit = served_bit(owner, base);
    atomic_fetch_or_explicit(&served[bit / 64], 1ull << (bit % 64),
                             memory_order_relaxed);
    unsigned i = hash64(alloc_id);
    e->next_id = by_id[i];
    by_id[i] = e;
    atomic_fetch_add_explicit(&live_exports, 1, memory_order_relaxed);
    pthread_mutex_unlock(&lock);
    return 0;
}

void umf_fd_server_unexport(uintptr_t owner, uint64_t base, int fd) {
    if (atomic_load_explicit(&live_exports, memory_order_relaxed) == 0) {
        return;
    }
    pthread_mutex_lock(&lock);
    for (entry_t *e = by_base[base_bucket(owner, base)]; e != NULL;
         e = e->next_base) {
        if (e->owner == owner && e->base == base && e->remote_fd == fd) {
            if (--e->refs == 0) {
                unlink_entry(e);
            }
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

void umf_fd_server_revoke(uintptr_t owner, uint64_t base) {
    if (!maybe_served(owner, base)) {
        return;
    }
    pthread_mutex_lock(&lock);
    entry_t *e = by_base[base_bucket(owner, base)];
    while (e != NULL) {
        entry_t *next = e->next_base;
        if (e->owner == owner && e->base == base) {
            unlink_entry(e);
        }
        e = next;
    }
    pthread_mutex_unlock(&lock);
}

void umf_fd_server_detach(uintptr_t owner) {
    pthread_mutex_lock(&lock);
    bool was = false;
    for (size_t i = 0; i < owner_count; i++) {
        if (owners[i] == owner) {
            owners[i] = owners[--owner_count];
            was = true;
            break;
        }
    }
    if (was) {
        each_entry(pick_owner, owner);
    }
    bool last = was && owner_count == 0;
    pthread_mutex_unlock(&lock);
    if (last) {
        stop_server(true);
    }
}

size_t umf_fd_server_exports(void) {
    return atomic_load_explicit(&live_exports, memory_order_relaxed);
}

bool umf_fd_server_running(void) {
    pthread_mutex_lock(&lock);
    bool r = running;
    pthread_mutex_unlock(&lock);
    return r;
}

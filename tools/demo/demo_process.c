// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The demo's second process: starting this program again (as the consumer,
// or as the probe for real drivers), waiting for it, and the bytes that pass
// between the two.

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "demo.h"

extern char **environ;

pid_t demo_spawn_self(const char *const *args, demo_why_t *why) {
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (len <= 0) {
        demo_why(why, "cannot find this program to start it again: %s",
                 strerror(errno));
        return -1;
    }
    self[len] = '\0';

    const char *argv[16];
    size_t argc = 0;
    argv[argc++] = self;
    for (size_t i = 0; args[i] != NULL; i++) {
        if (argc + 1 >= sizeof(argv) / sizeof(argv[0])) {
            demo_why(why, "too many arguments for the second process");
            return -1;
        }
        argv[argc++] = args[i];
    }
    argv[argc] = NULL;

    // The child inherits the descriptors without FD_CLOEXEC: the socket
    // end the caller made for it, and nothing else of ours.
    pid_t pid = -1;
    int err = posix_spawn(&pid, self, NULL, NULL, (char *const *)argv, environ);
    if (err != 0) {
        demo_why(why, "posix_spawn(%s): %s", self, strerror(err));
        return -1;
    }
    return pid;
}

int demo_wait(pid_t pid, demo_why_t *why) {
    int status = 0;
    pid_t got;
    do {
        got = waitpid(pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        return demo_why(why, "waitpid(%d): %s", (int)pid, strerror(errno));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return 0;
    }
    if (WIFEXITED(status)) {
        return demo_why(why, "it exited with status %d%s", WEXITSTATUS(status),
                        WEXITSTATUS(status) == 86
                            ? " (the emulated driver's strict leak check: "
                              "see its report above)"
                            : " (see its messages above)");
    }
    if (WIFSIGNALED(status)) {
        return demo_why(why, "it was killed by signal %d (%s)",
                        WTERMSIG(status), strsignal(WTERMSIG(status)));
    }
    return demo_why(why, "it ended with wait status 0x%x", (unsigned)status);
}

/*
 * The floor of any socket lookup: a bare ping-pong over a Unix stream socket between two
 * processes, each message a 32-byte write answered by a 32-byte write. Prints one line:
 *   pingpong round_trips=N seconds=S p50_ns=X p99_ns=Y
 * With a second argument DEPTH > 1 it is pipelined: DEPTH messages stay in flight, and only
 * the rate counts (latency is then queueing):
 *   pingpong round_trips=N seconds=S depth=D
 * Compiled and run by l10nd-bench (CPingPongFloor.swift) next to its direct and pipelined figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int exact(int fd, char *buffer, size_t size, int writing) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = writing ? write(fd, buffer + done, size - done) : read(fd, buffer + done, size - done);
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    return 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 100000;
    if (count <= 0) count = 100000;
    int depth = argc > 2 ? atoi(argv[2]) : 1;
    if (depth < 1) depth = 1;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) { perror("socketpair"); return 1; }
    char message[32];
    memset(message, 'x', sizeof message);
    pid_t child = fork();
    if (child < 0) { perror("fork"); return 1; }
    if (child == 0) {
        close(pair[0]);
        while (exact(pair[1], message, sizeof message, 0) == 0) {
            if (exact(pair[1], message, sizeof message, 1) != 0) break;
        }
        _exit(0);
    }
    close(pair[1]);
    if (depth > 1) {
        if (depth > count) depth = count;
        double begun = now();
        int sent = 0;
        for (; sent < depth; sent++) {
            if (exact(pair[0], message, sizeof message, 1) != 0) return 1;
        }
        for (int received = 0; received < count; received++) {
            if (exact(pair[0], message, sizeof message, 0) != 0) return 1;
            if (sent < count) {
                if (exact(pair[0], message, sizeof message, 1) != 0) return 1;
                sent++;
            }
        }
        double took = now() - begun;
        close(pair[0]);
        waitpid(child, NULL, 0);
        printf("pingpong round_trips=%d seconds=%.6f depth=%d\n", count, took, depth);
        return 0;
    }
    double *samples = malloc(sizeof(double) * (size_t)count);
    if (!samples) return 1;
    double started = now();
    for (int i = 0; i < count; i++) {
        double t = now();
        if (exact(pair[0], message, sizeof message, 1) != 0 || exact(pair[0], message, sizeof message, 0) != 0) {
            fprintf(stderr, "pingpong: peer went away\n");
            return 1;
        }
        samples[i] = now() - t;
    }
    double elapsed = now() - started;
    close(pair[0]);
    waitpid(child, NULL, 0);
    qsort(samples, (size_t)count, sizeof(double), compare);
    printf("pingpong round_trips=%d seconds=%.6f p50_ns=%.0f p99_ns=%.0f\n", count, elapsed,
           samples[count / 2] * 1e9, samples[(int)(count * 0.99)] * 1e9);
    free(samples);
    return 0;
}

/*
 * mpirun-j's yardstick: OSU-style loops (latency, bandwidth, bcast, alltoall, allreduce) in plain
 * MPI C, to run under Open MPI beside `mpirun-j bench` (benchmarks/yardstick.sh). Our own code, in
 * the spirit of the OSU micro-benchmarks: warm-up iterations, a barrier, timed iterations; the
 * collectives time each call and enter a barrier after it, as osu_bcast.c and `mpirun-j bench` do,
 * and report the average over ranks of each rank's mean time per call.
 *
 * usage: yardstick BENCH SIZE...   BENCH: latency | bw | bcast | alltoall | allreduce
 *        (YARDSTICK_LOOP=back-to-back: collectives without the barrier between calls)
 * prints: one line per size, "BENCH SIZE VALUE" (µs; MB/s for bw)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

static int iterations(size_t bytes) { return bytes > 8192 ? 100 : 1000; }
static int warmups(size_t bytes) { return bytes > 8192 ? 10 : 100; }

static double latency(size_t bytes, char *buf, int rank) {
    int iters = iterations(bytes), skip = warmups(bytes);
    double start = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + skip; i++) {
        if (i == skip) start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, (int) bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, (int) bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, (int) bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int) bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
}

static double bandwidth(size_t bytes, char *buf, int rank) {
    int iters = bytes > 8192 ? 20 : 100, skip = bytes > 8192 ? 2 : 10;
    MPI_Request req[WINDOW];
    char ack = 0;
    double start = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + skip; i++) {
        if (i == skip) start = MPI_Wtime();
        if (rank == 0) {
            for (int w = 0; w < WINDOW; w++) MPI_Isend(buf, (int) bytes, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < WINDOW; w++) MPI_Irecv(buf, (int) bytes, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
        }
    }
    double seconds = MPI_Wtime() - start;
    return (double) bytes * WINDOW * iters / seconds / 1e6;
}

static void call(const char *op, size_t bytes, char *buf, char *out) {
    if (strcmp(op, "bcast") == 0) {
        MPI_Bcast(buf, (int) bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
    } else if (strcmp(op, "alltoall") == 0) {
        MPI_Alltoall(buf, (int) bytes, MPI_CHAR, out, (int) bytes, MPI_CHAR, MPI_COMM_WORLD);
    } else { /* allreduce: bytes / 4 floats, as osu_allreduce */
        int n = bytes < 4 ? 1 : (int) (bytes / 4);
        MPI_Allreduce(buf, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
}

/*
 * Mean µs per call of `op`, averaged over the ranks. As osu_bcast.c (and `mpirun-j bench`): each call
 * timed alone, then a barrier, so a call starts when every rank is ready and a rooted call measures
 * latency. With YARDSTICK_LOOP=back-to-back set, the calls run back to back under one clock instead
 * (this program's loop before 25 Nov 2026): a root's eager sends then overlap the next calls, so a
 * small bcast measures throughput, not what `mpirun-j bench` measures.
 */
static double collective(const char *op, size_t bytes, char *buf, char *out, int size, int back_to_back) {
    int iters = iterations(bytes), skip = warmups(bytes);
    double start = 0, timed = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + skip; i++) {
        if (back_to_back) {
            if (i == skip) start = MPI_Wtime();
            call(op, bytes, buf, out);
            continue;
        }
        double t_start = MPI_Wtime();
        call(op, bytes, buf, out);
        if (i >= skip) timed += MPI_Wtime() - t_start;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double mine = (back_to_back ? MPI_Wtime() - start : timed) * 1e6 / iters, sum = 0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / size;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        if (rank == 0) fprintf(stderr, "usage: yardstick latency|bw|bcast|alltoall|allreduce SIZE...\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *bench = argv[1];
    const char *loop = getenv("YARDSTICK_LOOP");
    int back_to_back = loop != NULL && strcmp(loop, "back-to-back") == 0;
    for (int a = 2; a < argc; a++) {
        size_t bytes = strtoull(argv[a], NULL, 10);
        size_t per = strcmp(bench, "alltoall") == 0 ? bytes * size : (bytes < 4 ? 4 : bytes);
        char *buf = calloc(per, 1), *out = calloc(per, 1);
        if (!buf || !out) MPI_Abort(MPI_COMM_WORLD, 3);
        double v;
        if (strcmp(bench, "latency") == 0) v = latency(bytes, buf, rank);
        else if (strcmp(bench, "bw") == 0) v = bandwidth(bytes, buf, rank);
        else v = collective(bench, bytes, buf, out, size, back_to_back);
        if (rank == 0) printf("%s %zu %.2f\n", bench, bytes, v);
        fflush(stdout);
        free(buf);
        free(out);
    }
    MPI_Finalize();
    return 0;
}

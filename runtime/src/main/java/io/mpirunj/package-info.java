/**
 * The API of an SPMD program run by {@code mpirun-j}: every rank runs the same {@code main}, and the
 * ranks cooperate through a communicator, {@link io.mpirunj.Comm}.
 *
 * <h2>A program</h2>
 * <pre>{@code
 * import io.mpirunj.*;
 *
 * public class Pi {
 *     public static void main(String[] args) {
 *         Comm world = Mpi.init(args);                   // join the job
 *         int n = 1_000_000, rank = world.rank(), size = world.size();
 *         double[] local = {0}, total = {0};
 *         for (int i = rank; i < n; i += size) {        // this rank's share of the work
 *             double x = (i + 0.5) / n;
 *             local[0] += 4 / (1 + x * x) / n;
 *         }
 *         world.reduce(Buffer.of(local), Buffer.of(total), Op.SUM, 0);
 *         if (rank == 0) System.out.println("pi ~ " + total[0]);
 *         Mpi.finish();                                  // leave it
 *     }
 * }
 * }</pre>
 * Run it with {@code mpirun-j -np 4 Pi.java} (compiled for you), or compile it against the
 * {@code mpirunj-runtime} jar and run {@code mpirun-j -np 4 -cp DIR Pi}; add {@code --threads} to
 * run the ranks as threads of one JVM. Run on its own ({@code java Pi}), a program is a job of one rank.
 *
 * <h2>Ranks</h2>
 * A job has N ranks, numbered 0 to N-1 in the world communicator: {@link io.mpirunj.Mpi#init} joins
 * the job and returns it, {@link io.mpirunj.Comm#rank()} and {@link io.mpirunj.Comm#size()} say who
 * and how many. Each rank is a process (the default) or a thread with its own copy of the program's
 * classes (with {@code --threads}); either way ranks share nothing but messages.
 * {@link io.mpirunj.Comm#split}, {@link io.mpirunj.Comm#create} and {@link io.mpirunj.Comm#dup} make
 * new communicators over some of the ranks, numbered from 0 again, whose messages never mix with
 * another communicator's.
 *
 * <h2>Buffers</h2>
 * Every operation takes a {@link io.mpirunj.Buffer}: a typed window on your memory, never a copy.
 * {@code Buffer.of(int[])} is the whole array; {@code Buffer.of(double[], offset, count)} a part
 * of it; {@code Buffer.of(ByteBuffer)} the bytes between the buffer's position and limit, heap or
 * direct; {@code Buffer.of(ByteBuffer, ElementType.LONG)} those bytes read as longs, in the
 * buffer's own byte order. Counts are in elements. A receive into a buffer smaller than the
 * message fails with a {@link io.mpirunj.TruncationException}.
 *
 * <h2>Matching</h2>
 * A receive takes the first message from its source with its tag on its communicator, in the
 * order they were sent (messages never overtake one another); {@link io.mpirunj.Comm#ANY_SOURCE} and
 * {@link io.mpirunj.Comm#ANY_TAG} match any, and the {@link io.mpirunj.Status} says which one came.
 * A message that arrives before its receive is queued; a large one (above the eager limit) waits
 * at the sender until the receive is posted, so unexpected messages cost memory only for their
 * headers. {@code isend}/{@code irecv} return a {@link io.mpirunj.Request} to wait on; {@code probe}
 * and {@code iprobe} look at a message without receiving it.
 *
 * <h2>Collectives</h2>
 * {@code barrier}, {@code bcast}, {@code multicast} (to a group of ranks), {@code gather(v)},
 * {@code scatter(v)}, {@code allgather(v)}, {@code alltoall(v)}, {@code reduce} and
 * {@code allreduce} (with an {@link io.mpirunj.Op}) must be called by every rank of the communicator
 * in the same order. Each is carried out by an algorithm from a registry: the one of highest
 * priority, or the one forced with {@code mpirun-j --coll bcast=binomial}, or per communicator with
 * {@link io.mpirunj.Comm#withCollectives}; {@code mpirun-j --list-algorithms} lists them.
 *
 * <h2>Errors</h2>
 * Every error is an unchecked {@link io.mpirunj.MpiException}. When a rank dies, every operation
 * that depends on it fails with a {@link io.mpirunj.RankFailedException} naming it, rather than
 * hanging; {@link io.mpirunj.Comm#abort} ends the whole job, and the operations still running fail
 * with an {@link io.mpirunj.AbortedException}.
 *
 * <h2>Testing</h2>
 * The {@code mpirunj-testing} artifact runs SPMD code on N ranks inside a JUnit test:
 * {@code MpiTesting.callRanks(4, world -> Pi.pi(world, 1_000_000))} returns each rank's result,
 * and a failing rank fails the test with its rank number.
 */
package io.mpirunj;

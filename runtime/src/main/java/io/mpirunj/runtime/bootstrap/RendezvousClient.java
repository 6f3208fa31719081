package io.mpirunj.runtime.bootstrap;

import com.google.protobuf.ByteString;
import io.mpirunj.AbortedException;
import io.mpirunj.MpiException;
import io.mpirunj.RankFailedException;
import io.mpirunj.runtime.JobControl;
import io.mpirunj.runtime.transport.tcp.WireProtocol;
import io.mpirunj.runtime.wire.AbortRequest;
import io.mpirunj.runtime.wire.ControlMessage;
import io.mpirunj.runtime.wire.Endpoint;
import io.mpirunj.runtime.wire.FinishFence;
import io.mpirunj.runtime.wire.Goodbye;
import io.mpirunj.runtime.wire.PeersInFinish;
import io.mpirunj.runtime.wire.RankFailed;
import io.mpirunj.runtime.wire.Register;
import io.mpirunj.runtime.wire.StatusQuery;
import io.mpirunj.runtime.wire.StatusReply;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank's side of the rendezvous ({@link RendezvousServer}): registers this rank's transport
 * address, waits for every rank's, then keeps the control connection for the job's life. It is
 * the rank's {@link JobControl} (abort requests go up) and delivers the launcher's notices to a
 * {@link Listener} (rank failures, job abort).
 *
 * <p>A plain blocking socket: registration blocks the starting thread (with a timeout), and one
 * daemon reader thread then waits for notices, so no event loop is involved. If the connection to
 * the launcher breaks without this rank having closed it, the job is treated as aborted (the
 * launcher is gone; nothing would ever end the job otherwise).
 */
public final class RendezvousClient implements JobControl, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RendezvousClient.class);

    /** Exit code reported with {@link Listener#onJobAborted} when the launcher vanished. */
    public static final int LAUNCHER_LOST_EXIT_CODE = 1;

    /** Notices from the launcher. Called on the client's reader thread. */
    public interface Listener {
        void onRankFailed(int rank, String reason);

        void onJobAborted(int exitCode, String reason);

        /**
         * The control connection broke without this rank closing it: the launcher is gone and
         * nothing else will ever end this rank. By default the job is treated as aborted with
         * {@link #LAUNCHER_LOST_EXIT_CODE}.
         */
        default void onLauncherLost(String reason) {
            onJobAborted(LAUNCHER_LOST_EXIT_CODE, reason);
        }

        /** The launcher asks what this rank is doing (one line, e.g. the MPI call it is blocked in). */
        default String onStatusQuery() {
            return "unknown";
        }

        /**
         * Rank {@code peer} is in Mpi.finish, having sent this rank {@code sentHere} messages in all (see
         * {@link io.mpirunj.runtime.p2p.P2pEngine#onPeerInFinish}).
         */
        default void onPeerInFinish(int peer, long sentHere) {
        }
    }

    private final int rank;
    private final InetSocketAddress server;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final List<InetSocketAddress> addresses;
    /** Notices that arrived before {@link #listen}; guarded by this, like the three fields below. */
    private final List<ControlMessage> early = new ArrayList<>();
    /**
     * Who serves the rendezvous, for messages: the launcher, or in a Slurm step without one ({@code waitForServer}
     * at registration) rank 0, whose end mid-job is what the other ranks then see.
     */
    private final String serverRole;
    /** Why the launcher connection was lost before {@link #listen}, or null; reported after {@link #early}. */
    private String lostBeforeListen;
    private Listener listener;
    private boolean aborted;
    private volatile boolean closed;
    private volatile int silenceMs;
    /**
     * Completed when the server says every rank is in Mpi.finish; failed by the first notice that means some never
     * will be (a rank failed, the job is aborted, the launcher is gone), whether it comes before or during the fence.
     */
    /** Completed by the server's FinishFence: how many collective messages the ranks sent to this one. */
    private final CompletableFuture<Long> finishFence = new CompletableFuture<>();

    private RendezvousClient(int rank, InetSocketAddress server, boolean hostedByRank0, Socket socket,
            DataInputStream in, DataOutputStream out, List<InetSocketAddress> addresses) {
        this.rank = rank;
        this.server = server;
        this.serverRole = serverRole(hostedByRank0);
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.addresses = addresses;
    }

    private static String serverRole(boolean hostedByRank0) {
        return hostedByRank0 ? "rank 0 (it hosts the job's rendezvous)" : "the launcher";
    }

    /**
     * A connection to {@code server}, never through a SOCKS proxy ({@code -DsocksProxyHost}: the launcher is on the
     * job's own network, and the proxy selector's set-up, reading the JDK's net.properties, is start-up work every
     * rank saves). A refused connection is retried for {@code retryRefusedMs} (0: not at all), for a server that may
     * not listen yet (a Slurm step's task 0 hosts it).
     */
    private static Socket connect(InetSocketAddress server, int timeoutMs, int retryRefusedMs)
            throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(retryRefusedMs);
        long backoffMs = 10;
        while (true) {
            Socket socket = new Socket(Proxy.NO_PROXY);
            try {
                socket.setTcpNoDelay(true);
                socket.setKeepAlive(true);
                socket.connect(server, timeoutMs);
                return socket;
            } catch (ConnectException refused) {
                closeQuietly(socket);
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (leftMs <= 0) {
                    throw refused;
                }
                Thread.sleep(Math.min(backoffMs, leftMs)); // the host rank is still starting
                backoffMs = Math.min(backoffMs * 2, 200);
            } catch (IOException | RuntimeException e) {
                closeQuietly(socket);
                throw e;
            }
        }
    }

    /** What every first message to the rendezvous says: the protocol, the job, the rank and the world's size. */
    private static Register.Builder introduction(String jobTokenHex, int rank, int size) {
        return Register.newBuilder().setProtocolVersion(WireProtocol.VERSION)
                .setJobToken(ByteString.copyFrom(JobToken.decode(jobTokenHex))).setRank(rank).setWorldSize(size);
    }

    /**
     * Tells the rendezvous at {@code server} that {@code rank} ends without having joined the job (a Slurm task whose
     * program ended before Mpi.init, or whose Mpi.init failed before it registered), so that the ranks waiting for it
     * are told at once. Best effort, and brief (it runs as the process exits): a refused connection is retried for
     * {@code retryRefusedMs}, connecting and the answer wait 2 s at most, and nothing is thrown; returns whether the
     * rendezvous took the word (it closes the connection after it).
     */
    public static boolean sayLeavingBeforeJoining(InetSocketAddress server, String jobTokenHex, int rank, int size,
            int retryRefusedMs) {
        ControlMessage leaving = ControlMessage.newBuilder().setRegister(introduction(jobTokenHex, rank, size)
                .setLeaving(true)).build();
        int timeoutMs = 2_000; // the word is a courtesy to the other ranks: never hold this exit long
        try (Socket socket = connect(server, timeoutMs, retryRefusedMs)) {
            socket.setSoTimeout(timeoutMs);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            ControlCodec.write(out, leaving);
            out.flush();
            return socket.getInputStream().read() < 0; // the server closes the connection once it has the word
        } catch (IOException | RuntimeException e) {
            LOG.debug("rank {}: could not tell the rendezvous at {} that it ends without joining: {}", rank, server,
                    e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Connects to {@code server}, registers {@code rank}'s {@code advertised} address, and blocks
     * until the server sends the address table (all ranks registered). Then starts the reader
     * thread; notices are held until {@link #listen} is called.
     *
     * @throws MpiException if the server cannot be reached, refuses the registration, or does not
     *     send the table within {@code timeoutMs}
     */
    public static RendezvousClient register(InetSocketAddress server, String jobTokenHex, int rank, int size,
            InetSocketAddress advertised, int timeoutMs) {
        return register(server, jobTokenHex, rank, size, advertised, timeoutMs, false);
    }

    /**
     * As {@link #register(InetSocketAddress, String, int, int, InetSocketAddress, int)}; with
     * {@code waitForServer}, a refused connection is retried until {@code timeoutMs}: for ranks that
     * may start before the rank hosting the rendezvous listens (under {@code srun}, where no launcher
     * starts first).
     */
    public static RendezvousClient register(InetSocketAddress server, String jobTokenHex, int rank, int size,
            InetSocketAddress advertised, int timeoutMs, boolean waitForServer) {
        // built and encoded before connecting: the server gives a connection little time to register
        ControlMessage registration = ControlMessage.newBuilder().setRegister(introduction(jobTokenHex, rank, size)
                .setHost(advertised.getHostString())
                .setPort(advertised.getPort())).build();
        java.io.ByteArrayOutputStream encoded = new java.io.ByteArrayOutputStream();
        Socket socket = null;
        try {
            ControlCodec.write(new DataOutputStream(encoded), registration);
            try {
                socket = connect(server, timeoutMs, waitForServer ? timeoutMs : 0);
            } catch (SocketTimeoutException e) { // no answer to the connect (a firewall dropping it), not a late rank
                throw new MpiException("rank " + rank + ": cannot reach the rendezvous at " + server + " within "
                        + timeoutMs + " ms (" + JobEnvironment.RENDEZVOUS_TIMEOUT_MS + "): " + e.getMessage(), e);
            }
            socket.setSoTimeout(timeoutMs);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            encoded.writeTo(out);
            out.flush();
            List<ControlMessage> early = new ArrayList<>();
            ControlMessage m;
            while ((m = ControlCodec.read(in)).getBodyCase() != ControlMessage.BodyCase.ADDRESS_TABLE) {
                if (m.getBodyCase() == ControlMessage.BodyCase.REJECTED) {
                    throw new MpiException("rank " + rank + ": the rendezvous at " + server
                            + " refused the registration: " + m.getRejected().getReason());
                }
                if (m.getBodyCase() == ControlMessage.BodyCase.RANK_FAILED && m.getRankFailed().getBeforeStart()) {
                    RankFailed f = m.getRankFailed();
                    String teller = rank == 0 && waitForServer ? "its rendezvous" : serverRole(waitForServer);
                    throw new RankFailedException(f.getRank(), "rank " + rank + ": the job cannot start: " + teller
                            + " reports rank " + f.getRank() + " failed: " + f.getReason(), null);
                }
                early.add(m); // e.g. an abort while others were still starting
            }
            List<Endpoint> table = m.getAddressTable().getEndpointsList();
            if (table.size() != size) {
                throw new MpiException("rank " + rank + ": the rendezvous sent " + table.size()
                        + " addresses (expected: size=" + size + ")");
            }
            List<InetSocketAddress> addresses = new ArrayList<>(size);
            for (Endpoint e : table) {
                addresses.add(new InetSocketAddress(e.getHost(), e.getPort()));
            }
            socket.setSoTimeout(0);
            RendezvousClient client = new RendezvousClient(rank, server, waitForServer, socket, in, out,
                    List.copyOf(addresses));
            client.early.addAll(early);
            early.forEach(client::blockFinishFence);
            client.startReader();
            return client;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            // without the SocketTimeoutException as its cause: its dozen JDK frames say nothing the line does not
            throw new MpiException("rank " + rank + ": not every rank registered with the rendezvous at " + server
                    + " within " + timeoutMs + " ms (" + JobEnvironment.RENDEZVOUS_TIMEOUT_MS + ")");
        } catch (IOException e) {
            closeQuietly(socket);
            throw new MpiException("rank " + rank + ": rendezvous at " + server + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(socket);
            throw new MpiException("rank " + rank + ": interrupted while waiting for the rendezvous at " + server, e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /**
     * Takes the launcher as lost after {@code ms} without a word from it (it sends a heartbeat every
     * {@link RendezvousServer#HEARTBEAT_INTERVAL_MS_DEFAULT} ms): the ranks of a node cut off from the
     * launcher then end by themselves. Off (0) by default.
     */
    public void expectHeartbeats(int ms) {
        silenceMs = ms;
        try {
            socket.setSoTimeout(ms);
        } catch (IOException e) {
            LOG.debug("rank {}: cannot set the launcher silence limit: {}", rank, e.toString());
        }
    }

    /** Every rank's transport address, indexed by world rank. */
    public List<InetSocketAddress> addresses() {
        return addresses;
    }

    /** Starts delivering notices to {@code l}, first those that arrived before, in order. */
    public synchronized void listen(Listener l) {
        listener = Objects.requireNonNull(l, "listener");
        early.forEach(this::dispatch);
        early.clear();
        if (lostBeforeListen != null) { // the loss ends the reader, so it is always the last notice
            String why = lostBeforeListen;
            lostBeforeListen = null;
            launcherLost(why);
        }
    }

    /** Asks the launcher to end the job (MPI_Abort); returns once the request is sent. */
    @Override
    public void abort(int worldRank, int exitCode, String reason) {
        try {
            send(ControlMessage.newBuilder().setAbort(AbortRequest.newBuilder()
                    .setRank(worldRank).setExitCode(exitCode).setReason(reason == null ? "" : reason)).build());
        } catch (IOException e) {
            throw new MpiException("rank " + worldRank + ": cannot send the abort request to the launcher at "
                    + server + ": " + e, e);
        }
    }

    /**
     * Tells the server this rank is in Mpi.finish, with how many collective messages and how many messages in all it
     * sent to each rank, and waits until it says every rank is, with how many collective messages all sent to this one.
     *
     * @throws RankFailedException if a rank failed, before or during the wait
     * @throws AbortedException if the job is being aborted
     * @throws MpiException if the control connection is lost
     */
    @Override
    public long finishFence(long[] collectiveSentTo, long[] sentTo) {
        if (!finishFence.isDone()) {
            FinishFence.Builder fence = FinishFence.newBuilder();
            for (int r = 0; r < collectiveSentTo.length; r++) {
                if (collectiveSentTo[r] != 0) {
                    fence.addCollectiveSentTo(r).addCollectiveSentCount(collectiveSentTo[r]);
                }
            }
            for (int r = 0; r < sentTo.length; r++) {
                if (sentTo[r] != 0) {
                    fence.addSentTo(r).addSentCount(sentTo[r]);
                }
            }
            try {
                send(ControlMessage.newBuilder().setFinishFence(fence).build());
            } catch (IOException e) {
                finishFence.completeExceptionally(new MpiException("cannot reach " + serverRole + " at " + server
                        + ": " + e, e));
            }
        }
        try {
            return finishFence.get();
        } catch (ExecutionException e) {
            throw rethrown((MpiException) e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException("rank " + rank + ": interrupted in Mpi.finish", e);
        }
    }

    /** {@code e} again, thrown on this thread: the same kind and message, with the original as the cause. */
    private static MpiException rethrown(MpiException e) {
        if (e instanceof RankFailedException f) {
            return new RankFailedException(f.failedRank(), f.getMessage(), f);
        }
        if (e instanceof AbortedException a) {
            AbortedException again = new AbortedException(a.exitCode(), a.getMessage());
            again.initCause(a);
            return again;
        }
        return new MpiException(e.getMessage(), e);
    }

    /** Says goodbye (this rank finished cleanly) and closes the connection. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            send(ControlMessage.newBuilder().setGoodbye(Goodbye.getDefaultInstance()).build());
        } catch (IOException e) {
            LOG.debug("rank {}: goodbye to the launcher failed: {}", rank, e.toString());
        }
        closed = true;
        try {
            socket.shutdownOutput(); // the server sees the goodbye, then EOF
        } catch (IOException e) {
            // already gone
        }
        closeQuietly(socket);
    }

    private synchronized void send(ControlMessage m) throws IOException {
        if (closed) {
            throw new IOException("control connection closed");
        }
        ControlCodec.write(out, m);
    }

    private void startReader() {
        Thread t = new Thread(this::readLoop, "mpirunj-rendezvous-r" + rank);
        t.setDaemon(true);
        t.start();
    }

    private void readLoop() {
        try {
            while (true) {
                ControlMessage m = ControlCodec.read(in);
                if (m.getBodyCase() == ControlMessage.BodyCase.STATUS_QUERY) {
                    answer(m.getStatusQuery());
                } else if (m.getBodyCase() == ControlMessage.BodyCase.FINISH_FENCE) {
                    finishFence.complete(m.getFinishFence().getCollectiveMessagesToYou());
                } else {
                    deliver(m);
                }
            }
        } catch (IOException e) {
            if (!closed) {
                String why = "lost the control connection to " + serverRole + " at " + server + ": "
                        + (ControlCodec.isEof(e) ? "closed" : e instanceof SocketTimeoutException
                                ? "no word from it for " + silenceMs + " ms" : e.toString());
                LOG.warn("rank {}: {}", rank, why);
                finishFence.completeExceptionally(new MpiException("Mpi.finish: " + why));
                deliverLauncherLost(why);
            }
        }
    }

    private synchronized void deliverLauncherLost(String why) {
        if (listener == null) {
            lostBeforeListen = why; // listen() reports it through onLauncherLost
            notifyAll(); // awaitLossHeld
        } else {
            launcherLost(why);
        }
    }

    /** For tests: waits up to {@code timeoutMs} until a launcher loss is held for {@link #listen}. */
    synchronized boolean awaitLossHeld(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (lostBeforeListen == null) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (leftMs <= 0) {
                return false;
            }
            wait(leftMs);
        }
        return true;
    }

    private void launcherLost(String why) { // lock held, listener set
        if (!aborted) {
            aborted = true;
            try {
                listener.onLauncherLost(why);
            } catch (RuntimeException e) {
                LOG.error("rank {}: rendezvous listener threw on launcher loss", rank, e);
            }
        }
    }

    /** Answers a status query on the reader thread (the listener only reads volatile state). */
    private void answer(StatusQuery q) {
        String activity = null;
        if (q.getQueryId() == RendezvousServer.HEARTBEAT_QUERY_ID) {
            activity = ""; // a heartbeat: the answer itself is the news
        } else {
            synchronized (this) {
                activity = listener == null ? "starting (has not joined the job yet)" : null;
            }
        }
        if (activity == null) {
            try {
                activity = listener.onStatusQuery();
            } catch (RuntimeException e) {
                activity = "unknown (" + e + ")";
            }
        }
        try {
            send(ControlMessage.newBuilder().setStatusReply(StatusReply.newBuilder().setQueryId(q.getQueryId())
                    .setRank(rank).setActivity(activity == null ? "unknown" : activity)).build());
        } catch (IOException e) {
            LOG.debug("rank {}: cannot answer the launcher's status query: {}", rank, e.toString());
        }
    }

    /** Dispatches {@code m}, or holds it until {@link #listen}. Serialized, so notices keep their order. */
    private synchronized void deliver(ControlMessage m) {
        blockFinishFence(m);
        if (listener == null) {
            early.add(m);
        } else {
            dispatch(m);
        }
    }

    /** If {@code m} means some rank will never reach Mpi.finish, fails the fence with why. */
    private void blockFinishFence(ControlMessage m) {
        if (m.getBodyCase() == ControlMessage.BodyCase.RANK_FAILED) {
            RankFailed f = m.getRankFailed();
            finishFence.completeExceptionally(new RankFailedException(f.getRank(), "Mpi.finish: " + serverRole
                    + " reports rank " + f.getRank() + " failed: " + f.getReason(), null));
        } else if (m.getBodyCase() == ControlMessage.BodyCase.JOB_ABORTED) {
            finishFence.completeExceptionally(new AbortedException(m.getJobAborted().getExitCode(),
                    "Mpi.finish: job aborted: " + m.getJobAborted().getReason()));
        }
    }

    private void dispatch(ControlMessage m) { // lock held
        try {
            switch (m.getBodyCase()) {
                case RANK_FAILED:
                    listener.onRankFailed(m.getRankFailed().getRank(), m.getRankFailed().getReason());
                    break;
                case PEERS_IN_FINISH: {
                    PeersInFinish p = m.getPeersInFinish();
                    for (int i = 0; i < p.getRankCount() && i < p.getSentToYouCount(); i++) {
                        listener.onPeerInFinish(p.getRank(i), p.getSentToYou(i));
                    }
                    break;
                }
                case JOB_ABORTED:
                    if (!aborted) {
                        aborted = true;
                        listener.onJobAborted(m.getJobAborted().getExitCode(), m.getJobAborted().getReason());
                    }
                    break;
                default:
                    LOG.warn("rank {}: unexpected {} from the launcher; ignored", rank, m.getBodyCase());
                    break;
            }
        } catch (RuntimeException e) {
            LOG.error("rank {}: rendezvous listener threw on {}", rank, m.getBodyCase(), e);
        }
    }

    private static void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}

package io.mpirunj.runtime.bootstrap;

import io.mpirunj.MpiException;
import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.transport.tcp.NettyIo;
import io.mpirunj.runtime.transport.tcp.TcpConfig;
import io.mpirunj.runtime.transport.tcp.WireProtocol;
import io.mpirunj.runtime.wire.AbortRequest;
import io.mpirunj.runtime.wire.AddressTable;
import io.mpirunj.runtime.wire.ControlMessage;
import io.mpirunj.runtime.wire.Endpoint;
import io.mpirunj.runtime.wire.FinishFence;
import io.mpirunj.runtime.wire.JobAborted;
import io.mpirunj.runtime.wire.PeersInFinish;
import io.mpirunj.runtime.wire.RankFailed;
import io.mpirunj.runtime.wire.Register;
import io.mpirunj.runtime.wire.Rejected;
import io.mpirunj.runtime.wire.StatusQuery;
import io.mpirunj.runtime.wire.StatusReply;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher's side of the rendezvous: every rank connects once, registers its transport
 * address, receives the full address table when the last rank has registered, and keeps the
 * connection for the life of the job (abort requests up; failure and abort notices down).
 *
 * <pre>
 *  rank ──Register{token, rank, size, host, port}──► server     (refused with a reason if wrong)
 *  rank ◄──────────────AddressTable──────────────── server     (to all, once all N registered)
 *  rank ──AbortRequest──► server ─► Listener.onAbort
 *  rank ◄── RankFailed / JobAborted ── server ◄─ notifyRankFailed / notifyAbort (launcher)
 *  rank ──FinishFence──► server                     (in Mpi.finish)
 *  rank ◄──────────────FinishFence───────────────── server     (to all, once all N are in it)
 *  rank ──Goodbye──► server, then closes            (finished; a close without it ─► onRankLost)
 *  rank ◄──StatusQuery── server ◄─ queryStatus (launcher; e.g. on timeout)
 *  rank ──StatusReply{activity}──► server           (the MPI call it is in, or where it is)
 * </pre>
 *
 * <p>Policy stays with the launcher: the server only reports ({@link Listener}) and relays what it
 * is told to. Threading: one event loop owns all state; {@link Listener} methods run on it and
 * must not block; every public method may be called from any thread.
 */
public final class RendezvousServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RendezvousServer.class);

    /** A connection must register within this time (as long as a rank gives a peer for its hello). */
    public static final String REGISTER_TIMEOUT_MS_PROP = "mpirunj.rendezvous.registerTimeoutMs";
    public static final int REGISTER_TIMEOUT_MS_DEFAULT = TcpConfig.HANDSHAKE_TIMEOUT_MS_DEFAULT;

    /**
     * Once every rank has registered, the server sends each a heartbeat (a status query with id
     * {@link #HEARTBEAT_QUERY_ID}) this often; after {@link #dropSilentRanks()}, a rank that stays
     * silent for {@link #HEARTBEAT_TIMEOUT_MS_PROP} is lost. This is how a node that vanishes from the
     * network without a reset (unplugged, partitioned) ends the job instead of hanging it. A job
     * whose ranks all run on the launcher's host does not drop them: their process exit tells, and
     * a busy host must not turn a slow rank into a lost one.
     */
    public static final String HEARTBEAT_INTERVAL_MS_PROP = "mpirunj.rendezvous.heartbeatIntervalMs";
    public static final int HEARTBEAT_INTERVAL_MS_DEFAULT = 1_000;
    public static final String HEARTBEAT_TIMEOUT_MS_PROP = "mpirunj.rendezvous.heartbeatTimeoutMs";
    public static final int HEARTBEAT_TIMEOUT_MS_DEFAULT = 6_000;
    /** The query id of a heartbeat; real status queries count from 1. */
    public static final long HEARTBEAT_QUERY_ID = 0;
    /**
     * How long the finish fence waits before it tells the ranks not yet in it which ranks are (each with how many
     * messages it sent them: a receive from those ranks then fails once they have arrived, instead of waiting for
     * ever), and then how often it tells them of later arrivals (together: at most one notice per rank per period).
     * A job whose ranks reach Mpi.finish together sends no notice.
     */
    public static final long PEERS_IN_FINISH_DELAY_MS = 500;
    private static final ControlMessage HEARTBEAT = ControlMessage.newBuilder()
            .setStatusQuery(StatusQuery.newBuilder().setQueryId(HEARTBEAT_QUERY_ID)).build();

    /** What the launcher learns from the ranks. Called on the server's event loop: never block. */
    public interface Listener {
        /** Every rank has registered and has been sent the address table. */
        void onAllRegistered();

        /** {@code rank} asked to abort the job (MPI_Abort); the launcher should end it with {@code exitCode}. */
        void onAbort(int rank, int exitCode, String reason);

        /** {@code rank}'s control connection closed without a goodbye: the rank died or hung up. */
        void onRankLost(int rank, String reason);

        /** {@code rank} said goodbye: it finished cleanly. */
        default void onRankFinished(int rank) {
        }

        /** {@code rank} is in Mpi.finish's fence (released once every rank is). */
        default void onFinishFence(int rank) {
        }

        /** {@code rank} has registered (its JVM is up and its transport listening). */
        default void onRankRegistered(int rank) {
        }

        /**
         * {@code rank}, which never registered, says its process is ending without joining the job (a Slurm task
         * tells task 0 so: nothing else there sees it end).
         */
        default void onRankLeftBeforeJoining(int rank) {
        }

        /**
         * A connection that never became a rank was refused or closed: garbage, an oversized
         * length, a wrong token, or no registration in time. {@code remote} is its address.
         */
        default void onRefused(String remote, String reason) {
        }
    }

    private final int size;
    private final byte[] token;
    private final Listener listener;
    private final int registerTimeoutMs;
    private final int heartbeatIntervalMs;
    private final int heartbeatTimeoutMs;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Channel serverChannel;

    // Confined to the event loop:
    private final Channel[] ranks;
    private final Endpoint[] endpoints;
    private final boolean[] finished;
    /** Which ranks are in Mpi.finish's fence, and how many. */
    private final boolean[] atFinishFence;
    private int atFinishFenceCount;
    /** Per rank, the collective messages the ranks at the finish fence said they sent to it. */
    private final long[] collectiveSentTo;
    /** Per rank at the finish fence and not yet announced to the others, what it said there (its messages sent). */
    private final FinishFence[] fences;
    /** The ranks at the finish fence not yet announced to the others ({@link #announceInFinish}). */
    private final List<Integer> unannounced = new ArrayList<>();
    private ScheduledFuture<?> peersInFinishTimer;
    /** When each rank's connection last delivered anything (System.nanoTime). */
    private final long[] lastHeardNs;
    private int registered;
    private volatile boolean dropSilentRanks;
    private boolean tableSent;
    /** Set by {@link #failStart}: the job can never start; every rank waiting for the table gets it instead. */
    private ControlMessage startFailure;
    private boolean closed;
    private long lastQueryId;
    private StatusQueryState query;

    /** The status query in flight. {@code answers} may be read from any thread. */
    private static final class StatusQueryState {
        final long id;
        final AtomicReferenceArray<String> answers;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        int remaining;

        StatusQueryState(long id, int size) {
            this.id = id;
            this.answers = new AtomicReferenceArray<>(size);
        }
    }

    /**
     * Binds an ephemeral port on {@code bindHost} and starts accepting ranks.
     *
     * @param jobTokenHex the token (hex) ranks must present, e.g. from {@link JobToken#random()}
     * @throws MpiException if the port cannot be bound
     */
    public RendezvousServer(int size, String jobTokenHex, String bindHost, Listener listener) {
        this(size, jobTokenHex, bindHost, 0, listener);
    }

    /**
     * Binds {@code port} on {@code bindHost} (0 for an ephemeral port) and starts accepting ranks:
     * a fixed port is for ranks that cannot be told an address, e.g. under {@code srun}, where rank 0
     * hosts the rendezvous on a port Slurm reserved for the step.
     *
     * @throws MpiException if the port cannot be bound
     */
    public RendezvousServer(int size, String jobTokenHex, String bindHost, int port, Listener listener) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port=" + port + " (expected: 0..65535)");
        }
        if (size < 1) {
            throw new IllegalArgumentException("size=" + size + " (expected: >= 1)");
        }
        this.size = size;
        this.token = JobToken.decode(jobTokenHex);
        this.listener = Objects.requireNonNull(listener, "listener");
        this.registerTimeoutMs = RuntimeConfig.intProperty(REGISTER_TIMEOUT_MS_PROP, REGISTER_TIMEOUT_MS_DEFAULT, 1);
        this.heartbeatIntervalMs = RuntimeConfig.intProperty(HEARTBEAT_INTERVAL_MS_PROP, HEARTBEAT_INTERVAL_MS_DEFAULT, 1);
        this.heartbeatTimeoutMs = RuntimeConfig.intProperty(HEARTBEAT_TIMEOUT_MS_PROP, HEARTBEAT_TIMEOUT_MS_DEFAULT, 1);
        this.ranks = new Channel[size];
        this.endpoints = new Endpoint[size];
        this.finished = new boolean[size];
        this.atFinishFence = new boolean[size];
        this.collectiveSentTo = new long[size];
        this.fences = new FinishFence[size];
        this.lastHeardNs = new long[size];
        // NIO, not epoll: a control connection per rank needs no native transport, and loading epoll's library
        // (copied out of its jar first, in the launcher) was ~40 ms of the launcher's work before its first rank
        NettyIo io = NettyIo.select(false);
        this.group = io.newGroup(1, "mpirunj-rendezvous");
        this.loop = group.next();
        try {
            this.serverChannel = NettyIo.listen(group, io.newListeningChannel(false), new InetSocketAddress(bindHost, port),
                    ch -> {
                        ControlCodec.install(ch.pipeline());
                        ch.pipeline().addLast("rank", new RankConnection());
                    }).syncUninterruptibly().channel();
        } catch (Exception e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new MpiException("cannot bind the rendezvous endpoint to " + bindHost + (port == 0 ? "" : ":" + port)
                    + ": " + e, e);
        }
        LOG.debug("rendezvous for {} ranks listening on {}", size, serverChannel.localAddress());
    }

    /**
     * The bound address. With a wildcard bind host the launcher substitutes an address the ranks
     * can reach when it fills {@link JobEnvironment#RENDEZVOUS}.
     */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** From now on a rank silent for the heartbeat timeout is lost (for jobs with ranks on other hosts). */
    public void dropSilentRanks() {
        dropSilentRanks = true;
    }

    /**
     * {@link #PEERS_IN_FINISH_DELAY_MS} after the first rank at the fence not yet announced: tells every rank not at
     * it which ranks have come, each with what it sent that rank (event loop). The next rank to come starts the next
     * period.
     */
    private void announceInFinish() {
        peersInFinishTimer = null;
        if (closed || atFinishFenceCount == size || unannounced.isEmpty()) {
            return;
        }
        PeersInFinish.Builder[] notices = new PeersInFinish.Builder[size];
        for (int q : unannounced) {
            long[] sentBy = new long[size];
            FinishFence f = fences[q];
            fences[q] = null; // told once
            for (int i = 0; i < f.getSentToCount() && i < f.getSentCountCount(); i++) {
                if (f.getSentTo(i) < size) {
                    sentBy[f.getSentTo(i)] = f.getSentCount(i);
                }
            }
            for (int r = 0; r < size; r++) {
                if (!atFinishFence[r] && r != q) {
                    if (notices[r] == null) {
                        notices[r] = PeersInFinish.newBuilder();
                    }
                    notices[r].addRank(q).addSentToYou(sentBy[r]);
                }
            }
        }
        unannounced.clear();
        for (int r = 0; r < size; r++) {
            Channel ch = ranks[r];
            if (notices[r] != null && ch != null && ch.isActive()) {
                ch.writeAndFlush(ControlMessage.newBuilder().setPeersInFinish(notices[r]).build());
            }
        }
    }

    /** Tells every other connected rank that {@code rank} died; they fail what depends on it. */
    public void notifyRankFailed(int rank, String reason) {
        ControlMessage m = ControlMessage.newBuilder()
                .setRankFailed(RankFailed.newBuilder().setRank(rank).setReason(reason == null ? "" : reason)).build();
        execute(() -> broadcast(m, rank));
    }

    /**
     * The job can never start, because of {@code rank} (it will never register): every rank waiting for the address
     * table, and every rank that registers from now on, is told so instead of waiting until its rendezvous times out.
     * Does nothing once the table has been sent (the ranks are told of failures by {@link #notifyRankFailed}).
     */
    public void failStart(int rank, String reason) {
        ControlMessage m = ControlMessage.newBuilder().setRankFailed(RankFailed.newBuilder().setRank(rank)
                .setReason(reason == null ? "" : reason).setBeforeStart(true)).build();
        execute(() -> {
            if (!tableSent && startFailure == null) {
                startFailure = m;
                broadcast(m, rank);
            }
        });
    }

    /** Tells every connected rank that the job is being aborted with {@code exitCode}. */
    public void notifyAbort(int exitCode, String reason) {
        ControlMessage m = ControlMessage.newBuilder()
                .setJobAborted(JobAborted.newBuilder().setExitCode(exitCode).setReason(reason == null ? "" : reason))
                .build();
        execute(() -> broadcast(m, -1));
    }

    /**
     * Asks every connected rank what it is doing and waits up to {@code timeoutMs} for the answers
     * (never call it on the server's event loop). Returns one line per rank, null for ranks that
     * did not answer (not connected, finished, or too busy to answer in time).
     */
    public String[] queryStatus(long timeoutMs) {
        CompletableFuture<StatusQueryState> started = new CompletableFuture<>();
        execute(() -> {
            StatusQueryState q = new StatusQueryState(++lastQueryId, size);
            ControlMessage m = ControlMessage.newBuilder()
                    .setStatusQuery(StatusQuery.newBuilder().setQueryId(q.id)).build();
            for (int r = 0; r < size; r++) {
                Channel ch = ranks[r];
                if (ch != null && ch.isActive() && !finished[r]) {
                    q.remaining++;
                    ch.writeAndFlush(m);
                }
            }
            query = q;
            if (q.remaining == 0) {
                q.done.complete(null);
            }
            started.complete(q);
        });
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String[] out = new String[size];
        try {
            StatusQueryState q = started.get(timeoutMs, TimeUnit.MILLISECONDS);
            try {
                q.done.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // report what arrived
            }
            for (int r = 0; r < size; r++) {
                out[r] = q.answers.get(r);
            }
        } catch (TimeoutException | ExecutionException e) {
            LOG.debug("rendezvous: status query not started: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** Closes every control connection and the listening socket; waits briefly. Idempotent. */
    @Override
    public void close() {
        // Close the ranks' connections ourselves rather than leave it to the group's shutdown: a rank
        // must see its control connection end (it reports the launcher lost), and the shutdown did not
        // always close them (RendezvousTest.launcherVanishingBeforeListen... waited 20 s for the end).
        execute(() -> {
            closed = true;
            for (Channel ch : ranks) {
                if (ch != null) {
                    ch.close();
                }
            }
        });
        serverChannel.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (!NettyIo.inEventLoop(group)) {
            group.terminationFuture().awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /**
     * On the event loop: pings every live rank and drops those silent for too long. A rank on the same host as one
     * dropped now, and itself silent for half the timeout (at least two ticks), is dropped with it: the ranks of a
     * node that vanished answered their last ping a few milliseconds apart, and one that crossed the timeout a tick
     * after the others was reported a second later, outside the launcher's window for gathering a node's losses
     * (DockerClusterTest saw "lost ranks 4-6" instead of "lost node: ranks 4-7").
     */
    private void heartbeat() {
        if (closed) {
            return;
        }
        boolean dropSilent = dropSilentRanks;
        long now = System.nanoTime();
        long[] silentMs = new long[size];
        List<InetAddress> lostHosts = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            silentMs[r] = live(r) ? TimeUnit.NANOSECONDS.toMillis(now - lastHeardNs[r]) : -1;
            if (dropSilent && silentMs[r] > heartbeatTimeoutMs) {
                InetAddress host = hostOf(r);
                if (host != null && !lostHosts.contains(host)) {
                    lostHosts.add(host);
                }
                drop(r, "no heartbeat for " + silentMs[r] + " ms (the node or the network is gone?)");
                silentMs[r] = -1; // not pinged below
            }
        }
        // half the timeout, but never within two ticks, where a healthy rank may not yet have answered
        long coDropMs = Math.max(heartbeatTimeoutMs / 2, 2L * heartbeatIntervalMs);
        for (int r = 0; r < size; r++) {
            if (silentMs[r] < 0) {
                continue; // gone, finished, or dropped above
            }
            if (silentMs[r] > coDropMs && lostHosts.contains(hostOf(r))) {
                drop(r, "no heartbeat for " + silentMs[r] + " ms, from a host whose other ranks are gone");
                continue;
            }
            ranks[r].writeAndFlush(HEARTBEAT);
        }
    }

    /** On the event loop: whether rank {@code r} is connected and has not finished. */
    private boolean live(int r) {
        Channel ch = ranks[r];
        return ch != null && ch.isActive() && !finished[r];
    }

    /** On the event loop: the address rank {@code r}'s control connection comes from, or null. */
    private InetAddress hostOf(int r) {
        Channel ch = ranks[r];
        return ch != null && ch.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
    }

    /** On the event loop: closes rank {@code r}'s connection; its close reports it lost for {@code why}. */
    private void drop(int r, String why) {
        Channel ch = ranks[r];
        RankConnection c = ch.pipeline().get(RankConnection.class);
        if (c != null) {
            c.lostReason = why;
        }
        ch.close();
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("rendezvous closed; dropped a notification");
        }
    }

    private void broadcast(ControlMessage m, int except) {
        for (int r = 0; r < size; r++) {
            Channel ch = ranks[r];
            if (r != except && ch != null && ch.isActive()) {
                ch.writeAndFlush(m);
            }
        }
    }

    private void report(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.error("rendezvous listener threw", e);
        }
    }

    /** One rank's control connection. Runs on the server's single event loop. */
    private final class RankConnection extends SimpleChannelInboundHandler<ControlMessage> {
        private int rank = -1;
        private boolean goodbye;
        /** Why this rank's connection is being closed by the server, or null (the peer closed it). */
        private String lostReason;
        private ScheduledFuture<?> timeout;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            timeout = ctx.executor().schedule(() -> refuse(ctx, "no registration within " + registerTimeoutMs + " ms"),
                    registerTimeoutMs, TimeUnit.MILLISECONDS);
            ctx.fireChannelActive();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ControlMessage m) {
            if (rank >= 0) {
                lastHeardNs[rank] = System.nanoTime();
            }
            if (rank < 0) {
                if (m.getBodyCase() != ControlMessage.BodyCase.REGISTER) {
                    refuse(ctx, "expected a registration, got " + m.getBodyCase());
                } else {
                    register(ctx, m.getRegister());
                }
                return;
            }
            switch (m.getBodyCase()) {
                case ABORT: {
                    AbortRequest a = m.getAbort();
                    LOG.info("rank {} requests abort with exit code {}: {}", rank, a.getExitCode(), a.getReason());
                    report(() -> listener.onAbort(rank, a.getExitCode(), a.getReason()));
                    break;
                }
                case FINISH_FENCE:
                    if (!atFinishFence[rank]) {
                        atFinishFence[rank] = true;
                        FinishFence fence = m.getFinishFence();
                        for (int i = 0; i < fence.getCollectiveSentToCount() && i < fence.getCollectiveSentCountCount();
                                i++) {
                            int to = fence.getCollectiveSentTo(i);
                            if (to < size) {
                                collectiveSentTo[to] += fence.getCollectiveSentCount(i);
                            }
                        }
                        fences[rank] = fence;
                        unannounced.add(rank);
                        report(() -> listener.onFinishFence(rank));
                        if (++atFinishFenceCount < size) {
                            if (peersInFinishTimer == null) {
                                peersInFinishTimer = loop.schedule(RendezvousServer.this::announceInFinish,
                                        PEERS_IN_FINISH_DELAY_MS, TimeUnit.MILLISECONDS);
                            }
                        } else {
                            if (peersInFinishTimer != null) {
                                peersInFinishTimer.cancel(false);
                            }
                            for (int r = 0; r < size; r++) { // each rank its own count
                                Channel ch = ranks[r];
                                if (ch != null && ch.isActive()) {
                                    ch.writeAndFlush(ControlMessage.newBuilder().setFinishFence(FinishFence
                                            .newBuilder().setCollectiveMessagesToYou(collectiveSentTo[r])).build());
                                }
                            }
                        }
                    }
                    break;
                case STATUS_REPLY: {
                    StatusReply reply = m.getStatusReply();
                    StatusQueryState q = query;
                    if (q != null && q.id == reply.getQueryId() && q.answers.compareAndSet(rank, null,
                            reply.getActivity()) && --q.remaining == 0) {
                        q.done.complete(null);
                    }
                    break;
                }
                case GOODBYE:
                    goodbye = true;
                    finished[rank] = true;
                    if (!atFinishFence[rank]) {
                        // it closed its rank without Mpi.finish (Mpi.init failed and the program went on, or finish
                        // threw first): the others' fence would wait for it forever, so fail it
                        notifyRankFailed(rank, "it left the job without reaching the fence of Mpi.finish (its Mpi.finish "
                                + "failed first, or it went on after Mpi.init failed)");
                    }
                    report(() -> listener.onRankFinished(rank));
                    break;
                default:
                    LOG.warn("rendezvous: rank {} at {} sent {} (expected: ABORT, FINISH_FENCE or GOODBYE); ignored", rank,
                            ctx.channel().remoteAddress(), m.getBodyCase());
                    break;
            }
        }

        private void register(ChannelHandlerContext ctx, Register r) {
            String problem = null;
            if (r.getProtocolVersion() != WireProtocol.VERSION) {
                problem = "protocol version=" + r.getProtocolVersion() + " (expected: " + WireProtocol.VERSION + ")";
            } else if (!JobToken.matches(token, r.getJobToken().toByteArray())) {
                problem = "job token mismatch (a process of another job?)";
            } else if (r.getWorldSize() != size) {
                problem = "world size=" + r.getWorldSize() + " (expected: " + size + ")";
            } else if (r.getRank() < 0 || r.getRank() >= size) {
                problem = "rank=" + Integer.toUnsignedString(r.getRank()) + " (expected: 0.." + (size - 1) + ")";
            } else if (r.getLeaving()) {
                leaving(ctx, r.getRank());
                return;
            } else if (ranks[r.getRank()] != null || finished[r.getRank()]) {
                problem = "rank " + r.getRank() + " is already registered";
            } else if (r.getPort() < 1 || r.getPort() > 65535 || r.getHost().isEmpty()) {
                problem = "address " + r.getHost() + ":" + r.getPort() + " (expected: host and port 1..65535)";
            } else if (closed) {
                problem = "the job is over";
            }
            if (problem != null) {
                refuse(ctx, problem);
                return;
            }
            timeout.cancel(false);
            rank = r.getRank();
            ranks[rank] = ctx.channel();
            endpoints[rank] = Endpoint.newBuilder().setHost(r.getHost()).setPort(r.getPort()).build();
            registered++;
            int registeredRank = rank;
            report(() -> listener.onRankRegistered(registeredRank));
            LOG.debug("rank {} registered from {} as {}:{} ({}/{})", rank, ctx.channel().remoteAddress(), r.getHost(),
                    r.getPort(), registered, size);
            if (startFailure != null) {
                ctx.writeAndFlush(startFailure); // it would wait for a table that never comes
            } else if (registered == size && !tableSent) {
                tableSent = true;
                List<Endpoint> all = new ArrayList<>(size);
                Collections.addAll(all, endpoints);
                broadcast(ControlMessage.newBuilder().setAddressTable(AddressTable.newBuilder().addAllEndpoints(all))
                        .build(), -1);
                java.util.Arrays.fill(lastHeardNs, System.nanoTime());
                loop.scheduleAtFixedRate(RendezvousServer.this::heartbeat, heartbeatIntervalMs, heartbeatIntervalMs,
                        TimeUnit.MILLISECONDS);
                report(listener::onAllRegistered);
            }
        }

        /** A rank's word that it ends without joining: reported unless it has registered (its close tells then). */
        private void leaving(ChannelHandlerContext ctx, int who) {
            timeout.cancel(false);
            if (endpoints[who] == null) {
                LOG.debug("rank {} at {} ends without joining the job", who, ctx.channel().remoteAddress());
                report(() -> listener.onRankLeftBeforeJoining(who));
            }
            ctx.close();
        }

        private void refuse(ChannelHandlerContext ctx, String reason) {
            LOG.warn("rendezvous: refused connection from {}: {}", ctx.channel().remoteAddress(), reason);
            report(() -> listener.onRefused(String.valueOf(ctx.channel().remoteAddress()), reason));
            ctx.writeAndFlush(ControlMessage.newBuilder().setRejected(Rejected.newBuilder().setReason(reason)).build())
                    .addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("rendezvous: connection {} (rank {}) failed: {}", ctx.channel().remoteAddress(), rank,
                    cause.toString());
            if (rank < 0 && ctx.channel().isActive()) {
                // garbage or an oversized length before any registration: not a rank, so say so here
                String why = cause instanceof io.netty.handler.codec.DecoderException && cause.getCause() != null
                        ? cause.getCause().toString() : cause.toString();
                report(() -> listener.onRefused(String.valueOf(ctx.channel().remoteAddress()),
                        "not a rank's registration: " + why));
            } else if (rank >= 0) {
                lostReason = cause.toString();
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (timeout != null) {
                timeout.cancel(false);
            }
            if (rank >= 0) {
                ranks[rank] = null;
                if (!goodbye && !closed) {
                    int lost = rank;
                    String why = "control connection from " + ctx.channel().remoteAddress() + " "
                            + (lostReason != null ? "dropped: " + lostReason : "closed without goodbye");
                    LOG.warn("rendezvous: lost rank {}: {}", lost, why);
                    report(() -> listener.onRankLost(lost, why));
                }
            }
            ctx.fireChannelInactive();
        }
    }
}

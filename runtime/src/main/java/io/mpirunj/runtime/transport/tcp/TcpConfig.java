package io.mpirunj.runtime.transport.tcp;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.bootstrap.JobEnvironment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * Tunables of one {@link TcpTransport}. Each is a {@code *_PROP} system property with a
 * {@code *_DEFAULT}; the two host names also come from the job environment. Immutable; the
 * {@code with*} methods return modified copies (handy in tests).
 */
public final class TcpConfig {
    /**
     * Netty event-loop threads per transport; 0 (the default): none, the rank's waiting threads drive
     * the I/O themselves and a helper thread only while none waits ({@link ProgressLoop}). Also when
     * a host's ranks outnumber its cores: there a message to a waiting rank then costs one kernel
     * wake-up instead of three thread hand-offs (np 8 on 2 cores, same build, steady state: bcast 1 B
     * 492 against 833 µs, alltoall 1 KiB 2,667 against 4,342, allreduce 64 KiB 3,962 against 4,792,
     * half the context switches; benchmarks/README.md).
     */
    public static final String IO_THREADS_PROP = "mpirunj.tcp.ioThreads";
    public static final int IO_THREADS_DEFAULT = 0;

    /**
     * Largest frame (length field value) accepted or sent. DATA payloads are streamed into the
     * receive buffer, so this bounds a message size rather than memory; the ceiling is the signed
     * 32-bit length field.
     */
    public static final String MAX_FRAME_BYTES_PROP = "mpirunj.tcp.maxFrameBytes";
    public static final int MAX_FRAME_BYTES_DEFAULT = Integer.MAX_VALUE;

    /**
     * Largest EAGER payload accepted. Eager payloads are assembled in memory before the matching
     * engine sees them, so this bounds what one frame can make a receiver allocate.
     */
    public static final String MAX_EAGER_BYTES_PROP = "mpirunj.tcp.maxEagerBytes";
    public static final int MAX_EAGER_BYTES_DEFAULT = 64 * 1024 * 1024;

    /** A connection must complete its hello within this time. */
    public static final String HANDSHAKE_TIMEOUT_MS_PROP = "mpirunj.tcp.handshakeTimeoutMs";
    public static final int HANDSHAKE_TIMEOUT_MS_DEFAULT = 10_000;

    public static final String CONNECT_TIMEOUT_MS_PROP = "mpirunj.tcp.connectTimeoutMs";
    public static final int CONNECT_TIMEOUT_MS_DEFAULT = 10_000;

    /**
     * After this long, {@link TcpTransport#close()} logs which peers have not yet read its last frames
     * and answered its goodbye. It keeps waiting for them: only a peer's loss (its connection failing,
     * or the launcher reporting it dead) ends the wait early, because leaving earlier could lose data.
     */
    public static final String CLOSE_NOTICE_MS_PROP = "mpirunj.tcp.closeNoticeMs";
    public static final int CLOSE_NOTICE_MS_DEFAULT = 10_000;

    /** Outbound bytes buffered in a channel above which the link stops writing until it drains. */
    public static final String WRITE_HIGH_WATER_MARK_PROP = "mpirunj.tcp.writeHighWaterMark";
    public static final int WRITE_HIGH_WATER_MARK_DEFAULT = 2 * 1024 * 1024;

    /** Largest read from a socket (bytes); process-wide, read when a channel is made. */
    public static final String READ_MAX_BYTES_PROP = "mpirunj.tcp.readMaxBytes";
    /** Size of the chunks a large heap payload is copied to native memory in (bytes); process-wide. */
    public static final String WRITE_CHUNK_BYTES_PROP = "mpirunj.tcp.writeChunkBytes";
    /**
     * SO_SNDBUF of the connections a rank opens (bytes; 0: the kernel's autotuned default); process-wide.
     * Set explicitly because Netty's epoll and NIO channels gather at most twice the socket's send buffer
     * into one write, starting from the kernel's initial 16 KiB and growing only after a whole gather is
     * taken: with the default a 1 MiB payload never joined its 13-byte frame prefix, so every large
     * frame cost a writev of the prefix alone (a loopback segment and a wake-up of the reader) before
     * the payload's own sendto. The kernel doubles the value and caps it at net.core.wmem_max.
     * Off by default: a set SO_SNDBUF ends the kernel's autotuning (on a host with the default wmem_max
     * it would cap the buffer near 416 KiB), and the one paired measurement (session 12, loaded) did not
     * show the joined write paying off.
     */
    public static final String SEND_BUFFER_BYTES_PROP = "mpirunj.tcp.sendBufferBytes";
    /** How often the progress helper looks whether the rank still drives its own progress (µs); process-wide. */
    public static final String HELPER_TICK_MICROS_PROP = "mpirunj.tcp.helperTickMicros";
    /** The longest the progress helper waits between looks while the rank drives (µs); process-wide. */
    public static final String HELPER_MAX_TICK_MICROS_PROP = "mpirunj.tcp.helperMaxTickMicros";

    /** Use native epoll when available (NIO otherwise). */
    public static final String EPOLL_PROP = "mpirunj.tcp.epoll";

    /**
     * The same-host path: with native epoll, each rank also listens on a Unix domain socket in Linux's
     * abstract namespace (nothing in the file system; it goes when the process does, even on kill -9),
     * named from the rank's advertised TCP address and rank, and a rank sends to a peer whose advertised host is its own
     * (same host and network namespace) over that socket instead of loopback TCP, if the listener runs as the
     * same user (the job token goes to no one else).
     * Same frames, handshake, goodbye and failure detection; a connection that fails before its handshake
     * completes (no such socket, refused, ...) falls back to TCP at once. Both ends need it on for the path
     * to be taken. On by default: np 8 on 2 cores, paired with it off (session 13, loaded machine), osu_alltoall
     * was faster at every size from 1 B to 1 KiB (by 4-45 %) and osu_bcast's and osu_allreduce's medians were
     * lower (benchmarks/README.md).
     */
    public static final String LOCAL_SOCKETS_PROP = "mpirunj.tcp.localSockets";
    public static final boolean LOCAL_SOCKETS_DEFAULT = true;
    /**
     * SO_SNDBUF of the same-host connections a rank opens (bytes; 0: the kernel's default); process-wide. A Unix
     * domain stream socket has no autotuning: its send buffer stays at net.core.wmem_default (208 KiB), all a sender
     * may have unread by its peer, so a 1 MiB payload waited five times for the reader to be scheduled. The kernel
     * doubles the value and caps it at net.core.wmem_max. Default 2 MiB: osu_alltoall np 8 on 2 cores, quiet machine,
     * one run each (session 14): 1 MiB 28,082 -> 14,500 µs, 256 KiB 5,155 -> 2,339, 64 KiB 959 -> 704 (loopback TCP,
     * whose buffer autotunes up to 4 MiB: 18,326-19,494 at 1 MiB).
     */
    public static final String LOCAL_SOCKET_SEND_BUFFER_BYTES_PROP = "mpirunj.tcp.localSocketSendBufferBytes";
    static final int LOCAL_SOCKET_SEND_BUFFER_BYTES_DEFAULT = 2 * 1024 * 1024;

    public static final String LOOPBACK = "127.0.0.1";
    public static final String WILDCARD = "0.0.0.0";

    private final String advertiseHost;
    private final String bindHost;
    private final int ioThreads;
    private final int maxFrameBytes;
    private final int maxEagerBytes;
    private final int handshakeTimeoutMs;
    private final int connectTimeoutMs;
    private final int closeNoticeMs;
    private final int writeHighWaterMark;
    private final boolean preferEpoll;
    private final boolean localSockets;

    private TcpConfig(String advertiseHost, String bindHost, int ioThreads, int maxFrameBytes, int maxEagerBytes,
            int handshakeTimeoutMs, int connectTimeoutMs, int closeNoticeMs, int writeHighWaterMark,
            boolean preferEpoll, boolean localSockets) {
        this.advertiseHost = advertiseHost;
        this.bindHost = bindHost;
        if (ioThreads < 0) {
            throw new IllegalArgumentException(IO_THREADS_PROP + "=" + ioThreads + " (expected: >= 0)");
        }
        this.ioThreads = ioThreads;
        this.maxFrameBytes = positive(MAX_FRAME_BYTES_PROP, maxFrameBytes);
        this.maxEagerBytes = positive(MAX_EAGER_BYTES_PROP, maxEagerBytes);
        this.handshakeTimeoutMs = positive(HANDSHAKE_TIMEOUT_MS_PROP, handshakeTimeoutMs);
        this.connectTimeoutMs = positive(CONNECT_TIMEOUT_MS_PROP, connectTimeoutMs);
        this.closeNoticeMs = positive(CLOSE_NOTICE_MS_PROP, closeNoticeMs);
        this.writeHighWaterMark = positive(WRITE_HIGH_WATER_MARK_PROP, writeHighWaterMark);
        this.preferEpoll = preferEpoll;
        this.localSockets = localSockets;
    }

    /** Loopback only, defaults overridden by system properties. */
    public static TcpConfig defaults() {
        return from(Map.of());
    }

    /**
     * Reads {@link JobEnvironment#ADVERTISE_HOST} and {@link JobEnvironment#BIND_HOST} from
     * {@code env} and the rest from system properties. Without an advertise host the transport is
     * reachable on loopback only. With one, it binds the wildcard address unless a bind host is given
     * (or the advertised host is itself a loopback address).
     */
    public static TcpConfig from(Map<String, String> env) {
        String advertise = blankToNull(env.get(JobEnvironment.ADVERTISE_HOST));
        String bind = blankToNull(env.get(JobEnvironment.BIND_HOST));
        if (advertise == null) {
            advertise = LOOPBACK;
        }
        if (bind == null) {
            bind = isLoopback(advertise) ? advertise : WILDCARD;
        }
        // The process-wide tunables live in static fields of the classes that use them: read them here, on the
        // thread that builds the transport, so a bad value is this one-line error and not a class that fails to
        // initialise later on an I/O thread (where the frame being sent would be lost).
        readMaxBytes();
        writeChunkBytes();
        sendBufferBytes();
        localSocketSendBufferBytes();
        helperTickMicros();
        helperMaxTickMicros();
        return new TcpConfig(advertise, bind,
                RuntimeConfig.intProperty(IO_THREADS_PROP, IO_THREADS_DEFAULT, 0),
                RuntimeConfig.intProperty(MAX_FRAME_BYTES_PROP, MAX_FRAME_BYTES_DEFAULT, 1),
                RuntimeConfig.intProperty(MAX_EAGER_BYTES_PROP, MAX_EAGER_BYTES_DEFAULT, 1),
                RuntimeConfig.intProperty(HANDSHAKE_TIMEOUT_MS_PROP, HANDSHAKE_TIMEOUT_MS_DEFAULT, 1),
                RuntimeConfig.intProperty(CONNECT_TIMEOUT_MS_PROP, CONNECT_TIMEOUT_MS_DEFAULT, 1),
                RuntimeConfig.intProperty(CLOSE_NOTICE_MS_PROP, CLOSE_NOTICE_MS_DEFAULT, 1),
                RuntimeConfig.intProperty(WRITE_HIGH_WATER_MARK_PROP, WRITE_HIGH_WATER_MARK_DEFAULT, 1),
                Boolean.parseBoolean(System.getProperty(EPOLL_PROP, "true")),
                Boolean.parseBoolean(System.getProperty(LOCAL_SOCKETS_PROP, Boolean.toString(LOCAL_SOCKETS_DEFAULT))));
    }

    public TcpConfig withMaxFrameBytes(int n) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, n, maxEagerBytes, handshakeTimeoutMs,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, preferEpoll, localSockets);
    }

    public TcpConfig withMaxEagerBytes(int n) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, maxFrameBytes, n, handshakeTimeoutMs,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, preferEpoll, localSockets);
    }

    public TcpConfig withHandshakeTimeoutMs(int ms) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, maxFrameBytes, maxEagerBytes, ms,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, preferEpoll, localSockets);
    }

    public TcpConfig withCloseNoticeMs(int ms) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, maxFrameBytes, maxEagerBytes, handshakeTimeoutMs,
                connectTimeoutMs, ms, writeHighWaterMark, preferEpoll, localSockets);
    }

    /** Netty event-loop threads ({@code n > 0}), or 0: the rank's waiting threads drive the I/O. */
    public TcpConfig withIoThreads(int n) {
        return new TcpConfig(advertiseHost, bindHost, n, maxFrameBytes, maxEagerBytes, handshakeTimeoutMs,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, preferEpoll, localSockets);
    }

    public TcpConfig withPreferEpoll(boolean epoll) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, maxFrameBytes, maxEagerBytes, handshakeTimeoutMs,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, epoll, localSockets);
    }

    /** With or without the same-host Unix domain socket path ({@link #LOCAL_SOCKETS_PROP}). */
    public TcpConfig withLocalSockets(boolean on) {
        return new TcpConfig(advertiseHost, bindHost, ioThreads, maxFrameBytes, maxEagerBytes, handshakeTimeoutMs,
                connectTimeoutMs, closeNoticeMs, writeHighWaterMark, preferEpoll, on);
    }

    /** Host other ranks use to reach this one. */
    public String advertiseHost() {
        return advertiseHost;
    }

    /** Local address the listening socket binds. */
    public String bindHost() {
        return bindHost;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    public int maxEagerBytes() {
        return maxEagerBytes;
    }

    public int handshakeTimeoutMs() {
        return handshakeTimeoutMs;
    }

    public int connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public int closeNoticeMs() {
        return closeNoticeMs;
    }

    public int writeHighWaterMark() {
        return writeHighWaterMark;
    }

    public int writeLowWaterMark() {
        return writeHighWaterMark / 4;
    }

    public boolean preferEpoll() {
        return preferEpoll;
    }

    /** Whether the transport listens on, and sends to same-host peers over, Unix domain sockets (epoll only). */
    public boolean localSockets() {
        return localSockets;
    }

    static int readMaxBytes() {
        return RuntimeConfig.intProperty(READ_MAX_BYTES_PROP, 1024 * 1024, 4096);
    }

    static int sendBufferBytes() {
        return RuntimeConfig.intProperty(SEND_BUFFER_BYTES_PROP, 0, 0);
    }

    static int localSocketSendBufferBytes() {
        return RuntimeConfig.intProperty(LOCAL_SOCKET_SEND_BUFFER_BYTES_PROP, LOCAL_SOCKET_SEND_BUFFER_BYTES_DEFAULT, 0);
    }

    static int writeChunkBytes() {
        return RuntimeConfig.intProperty(WRITE_CHUNK_BYTES_PROP, 256 * 1024, 4096);
    }

    static long helperTickMicros() {
        return RuntimeConfig.longProperty(HELPER_TICK_MICROS_PROP, 1_000, 1);
    }

    static long helperMaxTickMicros() {
        return RuntimeConfig.longProperty(HELPER_MAX_TICK_MICROS_PROP, 8_000, 1);
    }

    private static int positive(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + "=" + v + " (expected: > 0)");
        }
        return v;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static boolean isLoopback(String host) {
        if (host.equals("localhost")) {
            return true;
        }
        try {
            // Literal addresses only: a name would need DNS here, and then bind the wildcard anyway.
            boolean literal = host.matches("[0-9.]+") || host.indexOf(':') >= 0;
            return literal && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "TcpConfig[advertise=" + advertiseHost + ", bind=" + bindHost + ", ioThreads=" + ioThreads
                + ", maxFrameBytes=" + maxFrameBytes + ", maxEagerBytes=" + maxEagerBytes + ", epoll=" + preferEpoll
                + ", localSockets=" + localSockets
                + "]";
    }
}

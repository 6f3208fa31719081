package io.mpirunj.runtime.transport;

import io.mpirunj.runtime.RuntimeConfig;
import io.mpirunj.runtime.transport.local.LocalTransports;
import io.mpirunj.runtime.transport.tcp.TcpConfig;
import io.mpirunj.runtime.transport.tcp.TcpTransport;

/**
 * The one place that picks a job's transport from configuration ({@link RuntimeConfig#transport()})
 * and applies the configured decorator ({@link RuntimeConfig#transportDecorator()}) to what it makes.
 * A same-host transport (shared memory, Unix sockets) is added here as another name.
 */
public final class Transports {
    private Transports() {
    }

    /** Transports between rank processes: {@code tcp} (also for {@code auto}). */
    public static TransportFactory<NetworkTransport> forProcesses(RuntimeConfig config, byte[] jobToken, TcpConfig tcp) {
        switch (config.transport()) {
            case "auto":
            case "tcp":
                return (rank, size) -> new TcpTransport(rank, size, jobToken, tcp);
            default:
                throw new IllegalArgumentException(RuntimeConfig.TRANSPORT_PROP + "=" + config.transport()
                        + " (expected: auto or tcp for ranks as processes)");
        }
    }

    /** Transports between rank threads of one job of {@code size}: {@code local} (also for {@code auto}). */
    public static TransportFactory<Transport> forThreads(RuntimeConfig config, int size) {
        switch (config.transport()) {
            case "auto":
            case "local":
                return new LocalTransports(size);
            default:
                throw new IllegalArgumentException(RuntimeConfig.TRANSPORT_PROP + "=" + config.transport()
                        + " (expected: auto or local for ranks as threads)");
        }
    }

    /** {@code transport} as the engine should see it: wrapped by the configured decorator. */
    public static Transport decorate(Transport transport, RuntimeConfig config) {
        return config.transportDecorator().apply(transport);
    }
}

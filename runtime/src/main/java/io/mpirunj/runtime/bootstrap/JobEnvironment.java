package io.mpirunj.runtime.bootstrap;

/**
 * The environment contract between the launcher and a rank process. Rank identity travels only
 * here, never in argv. Names follow Open MPI's where tools key off them.
 */
public final class JobEnvironment {
    /** {@code host:port} of the launcher's rendezvous endpoint. */
    public static final String RENDEZVOUS = "MPIRUNJ_RENDEZVOUS";
    /**
     * "1" when the launcher tags every line of a rank's output with its rank ({@code --tag-output}, or srun's
     * {@code --label}): the rank's own error lines then leave out their {@code [rank R]}.
     */
    public static final String TAGGED_OUTPUT = "MPIRUNJ_TAGGED_OUTPUT";
    /** Per-job random token (hex); every connection must present it. */
    public static final String JOB_TOKEN = "MPIRUNJ_JOB_TOKEN";
    /** Host or address other ranks should use to reach this one (default: loopback). */
    public static final String ADVERTISE_HOST = "MPIRUNJ_ADVERTISE_HOST";
    /**
     * Local address a rank's TCP transport binds (default: the advertised host if it is a loopback
     * address, else the wildcard address).
     */
    public static final String BIND_HOST = "MPIRUNJ_BIND_HOST";
    /** How long a rank waits for every rank to register with the rendezvous endpoint (default 60000). */
    public static final String RENDEZVOUS_TIMEOUT_MS = "MPIRUNJ_RENDEZVOUS_TIMEOUT_MS";
    /**
     * Set to 1 when the rendezvous may not be listening yet as the rank starts (under {@code srun},
     * where a rank, not the launcher, hosts it): refused connections are retried until the timeout.
     */
    public static final String RENDEZVOUS_WAIT = "MPIRUNJ_RENDEZVOUS_WAIT";
    /**
     * Milliseconds a rank waits without a word (heartbeat) from the launcher before it takes the
     * launcher as lost; set for ranks on other hosts (unset: no limit).
     */
    public static final String LAUNCHER_SILENCE_MS = "MPIRUNJ_LAUNCHER_SILENCE_MS";
    /** Eager/rendezvous threshold in bytes. */
    public static final String EAGER_LIMIT = "MPIRUNJ_EAGER_LIMIT";
    /** Per-peer eager flow-control credit in bytes (see {@code RuntimeConfig.EAGER_CREDIT_PROP}). */
    public static final String EAGER_CREDIT_BYTES = "MPIRUNJ_EAGER_CREDIT_BYTES";
    /** Transport between ranks (see {@code RuntimeConfig.TRANSPORT_PROP}). */
    public static final String TRANSPORT = "MPIRUNJ_TRANSPORT";

    public static final String WORLD_RANK = "OMPI_COMM_WORLD_RANK";
    public static final String WORLD_SIZE = "OMPI_COMM_WORLD_SIZE";
    public static final String LOCAL_RANK = "OMPI_COMM_WORLD_LOCAL_RANK";
    public static final String LOCAL_SIZE = "OMPI_COMM_WORLD_LOCAL_SIZE";
    public static final String PMI_RANK = "PMI_RANK";
    public static final String PMI_SIZE = "PMI_SIZE";

    private JobEnvironment() {
    }
}

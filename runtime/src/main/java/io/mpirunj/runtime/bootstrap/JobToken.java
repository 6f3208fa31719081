package io.mpirunj.runtime.bootstrap;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The per-job secret every connection presents (rank to rank and rank to launcher), carried in
 * {@link JobEnvironment#JOB_TOKEN} as hex. It keeps processes of other jobs (and stray clients) out;
 * it is not a defence against anyone who can read the ranks' environment.
 */
public final class JobToken {
    /** Random bytes in a fresh token. */
    public static final int BYTES = 16;

    private JobToken() {
    }

    /**
     * The generator of tokens, made at the first one (in the launcher): a rank only decodes its token, and
     * a {@link SecureRandom} loads the security providers, ~10 ms of a rank process's start-up CPU.
     */
    private static final class Generator {
        static final SecureRandom RANDOM = new SecureRandom();
    }

    /** A fresh random token: {@link #BYTES} bytes as lower-case hex. */
    public static String random() {
        byte[] b = new byte[BYTES];
        Generator.RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * The bytes of a hex token.
     *
     * @throws IllegalArgumentException naming {@link JobEnvironment#JOB_TOKEN} if it is empty or not
     *     an even number of hex digits (the value itself is not printed)
     */
    public static byte[] decode(String hex) {
        if (hex == null || hex.isEmpty() || hex.length() % 2 != 0) {
            throw new IllegalArgumentException(JobEnvironment.JOB_TOKEN + " has " + (hex == null ? 0 : hex.length())
                    + " characters (expected: a non-empty, even number of hex digits)");
        }
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(JobEnvironment.JOB_TOKEN + " is not hex (expected: digits 0-9a-f)");
        }
    }

    /** Constant-time comparison, so a wrong guess does not learn how much of it was right. */
    public static boolean matches(byte[] expected, byte[] presented) {
        return MessageDigest.isEqual(expected, presented);
    }
}

package io.mpirunj.launcher.hosts;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * One node a job may place ranks on: its name (as the launch agent and the other ranks will use
 * it) and how many ranks it takes before the next node gets any ({@code slots}).
 */
public record Host(String name, int slots) {
    public Host {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a host needs a name");
        }
        if (slots < 1) {
            throw new IllegalArgumentException("host " + name + ": slots=" + slots + " (expected: >= 1)");
        }
    }

    /**
     * True if ranks on this host start as plain child processes rather than through the launch
     * agent: {@code localhost}, {@code 127.0.0.1}, {@code ::1} or this machine's own host name. Any
     * other name, including other loopback addresses such as 127.0.0.2, goes through the agent.
     */
    public boolean isLocal() {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("localhost") || n.equals("127.0.0.1") || n.equals("::1") || n.equals("[::1]")) {
            return true;
        }
        try {
            InetAddress self = InetAddress.getLocalHost();
            return n.equals(self.getHostName().toLowerCase(Locale.ROOT))
                    || n.equals(self.getCanonicalHostName().toLowerCase(Locale.ROOT));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}

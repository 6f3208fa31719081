package io.mpirunj.launcher.hosts;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where a process-mode job's ranks run and how they are reached: the placement, the launch agent for
 * ranks on other hosts, and the address those ranks use to reach the launcher's rendezvous port.
 *
 * @param placement the node of every rank
 * @param agent starts ranks on hosts that are not this one
 * @param rendezvousHost the launcher's address as the nodes see it (used only with remote ranks)
 */
public record JobLayout(Placement placement, LaunchAgent agent, String rendezvousHost) {
    /** Every rank on this host. */
    public static JobLayout local(int np) {
        return new JobLayout(Placement.local(np), LaunchAgent.parse(LaunchAgent.DEFAULT), "127.0.0.1");
    }

    public boolean hasRemoteRanks() {
        return placement.hasRemoteRanks();
    }

    /**
     * The address of this machine's interface that routes to {@code host} (no packet is sent: a UDP
     * socket's connect only picks the route). The default {@code --rendezvous-host}.
     */
    public static String addressRoutingTo(String host) {
        InetAddress target;
        try {
            target = InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve " + host + " to find the address it reaches this "
                    + "host at (give --rendezvous-host ADDRESS)");
        }
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(new InetSocketAddress(target, 9));
            InetAddress local = s.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new IOException("no route");
            }
            return local.getHostAddress();
        } catch (IOException e) {
            throw new IllegalArgumentException("no route from this host to " + host + " (give --rendezvous-host "
                    + "ADDRESS): " + e.getMessage());
        }
    }
}

package io.mpirunj.examples;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The smallest SPMD program: every rank says hello.
 *
 * <pre>
 *   $ mpirun-j -np 3 io.mpirunj.examples.Hello
 *   Hello from rank 0 of 3 on myhost
 *   Hello from rank 2 of 3 on myhost
 *   Hello from rank 1 of 3 on myhost
 * </pre>
 */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        Comm world = Mpi.init(args);
        System.out.println("Hello from rank " + world.rank() + " of " + world.size() + " on " + hostName());
        Mpi.finish();
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String h = System.getenv("HOSTNAME");
            return h != null ? h : "localhost";
        }
    }
}

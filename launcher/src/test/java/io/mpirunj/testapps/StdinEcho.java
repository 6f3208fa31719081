package io.mpirunj.testapps;

import io.mpirunj.Comm;
import io.mpirunj.Mpi;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Every rank reads one line of its standard input and prints it ({@code null} at end of input). */
public final class StdinEcho {
    private StdinEcho() {
    }

    public static void main(String[] args) throws IOException {
        Comm world = Mpi.init(args);
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        System.out.println("rank " + world.rank() + " read: " + line);
        Mpi.finish();
    }
}

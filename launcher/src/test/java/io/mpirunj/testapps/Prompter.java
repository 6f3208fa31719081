package io.mpirunj.testapps;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/** Prints the prompt {@code Enter n: } without a newline, reads a line of stdin and prints {@code got LINE}. */
public final class Prompter {
    private Prompter() {
    }

    public static void main(String[] args) throws Exception {
        System.out.print("Enter n: ");
        System.out.flush();
        String line = new BufferedReader(new InputStreamReader(System.in)).readLine();
        System.out.println("got " + line);
    }
}

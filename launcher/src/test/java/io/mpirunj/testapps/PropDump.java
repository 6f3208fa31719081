package io.mpirunj.testapps;

/** Prints {@code prop NAME=value} for each system property and {@code env NAME=value} for each variable named in args. */
public final class PropDump {
    private PropDump() {
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder("rank " + System.getenv("OMPI_COMM_WORLD_RANK"));
        for (String a : args) {
            if (a.startsWith("env:")) {
                String n = a.substring(4);
                sb.append(" env ").append(n).append('=').append(System.getenv(n));
            } else {
                sb.append(" prop ").append(a).append('=').append(System.getProperty(a));
            }
        }
        System.out.println(sb);
    }
}

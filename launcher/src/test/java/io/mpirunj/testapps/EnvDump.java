package io.mpirunj.testapps;

/** Prints the rank identity the launcher put in the environment, without joining the job. */
public final class EnvDump {
    private EnvDump() {
    }

    public static void main(String[] args) {
        String[] names = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_RANK", "PMI_SIZE", "MPIRUNJ_COLL"};
        StringBuilder sb = new StringBuilder("env");
        for (String n : names) {
            sb.append(' ').append(n).append('=').append(System.getenv(n));
        }
        sb.append(" token=").append(System.getenv("MPIRUNJ_JOB_TOKEN") != null);
        sb.append(" rendezvous=").append(System.getenv("MPIRUNJ_RENDEZVOUS") != null);
        System.out.println(sb);
    }
}

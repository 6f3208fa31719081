package io.mpirunj.benchmarks.sweep;

/** Told about a sweep's progress: {@link #start}, one {@link #step} before each job, {@link #done}. */
public interface Progress {
    void start(int jobs);

    void step(String label);

    void done();

    /** Reports nothing. */
    static Progress none() {
        return new Progress() {
            @Override
            public void start(int jobs) {
            }

            @Override
            public void step(String label) {
            }

            @Override
            public void done() {
            }
        };
    }
}

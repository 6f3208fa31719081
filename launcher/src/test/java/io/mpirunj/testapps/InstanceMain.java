package io.mpirunj.testapps;

/** A main that is not static. */
public final class InstanceMain {
    public void main(String[] args) {
    }
}

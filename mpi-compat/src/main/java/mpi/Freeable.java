package mpi;

/** An MPI object that can be freed (communicators, requests, datatypes, ops, groups). */
public interface Freeable {
    void free();
}

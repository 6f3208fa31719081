package mpi;

/**
 * An error handler. Both predefined handlers behave the same here: every error is thrown as an
 * {@link MPIException} (Open MPI's Java bindings throw under {@code ERRORS_RETURN} and abort under
 * {@code ERRORS_ARE_FATAL}; a Java program rarely wants the second).
 */
public final class Errhandler extends NamedHandle implements Freeable {
    Errhandler(String name) {
        super(name);
    }
}

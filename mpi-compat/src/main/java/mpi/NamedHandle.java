package mpi;

/**
 * What operations and error handlers share: a name (their {@link #toString()}), and nothing the runtime
 * must release, so {@link #free()} has nothing to do and they never become null handles.
 */
abstract class NamedHandle implements Freeable {
    private final String name;

    NamedHandle(String name) {
        this.name = name;
    }

    @Override
    public void free() {
    }

    public boolean isNull() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}

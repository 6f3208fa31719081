package io.mpirunj.fabric.wormhole;

/**
 * Messages blocked in a cycle of channels on a wormhole fabric: an outcome of the routing, the schedule and the
 * message sizes (a real wormhole network without virtual channels stops the same way), not a bug of the engine.
 * Tools report it in one line; a live run under emulation fails the ranks that wait.
 */
public final class WormholeDeadlockException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public WormholeDeadlockException(String message) {
        super(message);
    }
}

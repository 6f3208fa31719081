package io.mpirunj.collectives.sim;

/** How a schedule's time was evaluated. */
public enum Evaluation {
    /**
     * Event-driven, in virtual time: a message whose send starts at s is held by the receiver at
     * s + t_end (or when the network says so); a port's consecutive sends and consecutive receive
     * completions are t_hold apart.
     */
    EVENT,
    /**
     * The papers' round model: in each round a node sends at most one message per port and
     * receives at most one per port, and data received in a round can be forwarded from the next
     * round on; a round lasts the longest t_end of its messages (t_end for uniform models).
     */
    ROUNDS
}

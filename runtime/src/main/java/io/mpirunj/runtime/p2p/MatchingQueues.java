package io.mpirunj.runtime.p2p;

import io.mpirunj.runtime.transport.Frame;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * MPI matching state of one rank: posted receives and unexpected messages, queued per context and
 * per source, so matching scans only the queue that can match instead of every pending operation.
 *
 * <p>Order is MPI's: a message matches the oldest posted receive of its context whose source and tag
 * fit (a source's own receives and the ANY_SOURCE ones are compared by posting order); a receive
 * matches the oldest fitting unexpected message (with ANY_SOURCE, the earliest to arrive among each
 * source's first fitting one). Messages of one source are queued in arrival order, which is that
 * source's sending order, so nothing overtakes.
 *
 * <p>Not thread-safe: the engine calls it under its lock.
 */
final class MatchingQueues {
    private static final int DIRECT_CONTEXTS = 1024;

    private final int size;
    /** Contexts 0..DIRECT_CONTEXTS-1 by index (the usual case), others in {@link #farContexts}. */
    private ContextQueues[] contexts = new ContextQueues[8];
    private final Map<Integer, ContextQueues> farContexts = new HashMap<>();
    private long nextPost;
    private long nextArrival;

    MatchingQueues(int size) {
        this.size = size;
    }

    /** One context's queues; per-source deques are made on first use. */
    private static final class ContextQueues {
        final ArrayDeque<RecvRequest>[] postedBySource;
        final ArrayDeque<RecvRequest> postedAnySource = new ArrayDeque<>();
        final ArrayDeque<Incoming>[] unexpectedBySource;

        @SuppressWarnings("unchecked")
        ContextQueues(int size) {
            postedBySource = new ArrayDeque[size];
            unexpectedBySource = new ArrayDeque[size];
        }
    }

    private ContextQueues queues(int context, boolean create) {
        if (context >= 0 && context < DIRECT_CONTEXTS) {
            if (context >= contexts.length) {
                if (!create) {
                    return null;
                }
                contexts = java.util.Arrays.copyOf(contexts, Math.min(DIRECT_CONTEXTS, Math.max(context + 1,
                        contexts.length * 2)));
            }
            ContextQueues q = contexts[context];
            if (q == null && create) {
                q = contexts[context] = new ContextQueues(size);
            }
            return q;
        }
        ContextQueues q = farContexts.get(context);
        if (q == null && create) {
            q = new ContextQueues(size);
            farContexts.put(context, q);
        }
        return q;
    }

    private static <T> ArrayDeque<T> deque(ArrayDeque<T>[] bySource, int src) {
        ArrayDeque<T> d = bySource[src];
        if (d == null) {
            d = bySource[src] = new ArrayDeque<>();
        }
        return d;
    }

    // ---- posted receives --------------------------------------------------------------------------

    void post(RecvRequest r) {
        r.postOrder = nextPost++;
        ContextQueues q = queues(r.context, true);
        (r.srcWorld == P2pEngine.ANY ? q.postedAnySource : deque(q.postedBySource, r.srcWorld)).addLast(r);
    }

    /** Removes and returns the oldest posted receive matching a message from {@code src}, or null. */
    RecvRequest takePosted(int src, int context, int tag) {
        ContextQueues q = queues(context, false);
        if (q == null) {
            return null;
        }
        ArrayDeque<RecvRequest> own = q.postedBySource[src];
        RecvRequest specific = own == null ? null : firstWithTag(own, tag);
        RecvRequest any = q.postedAnySource.isEmpty() ? null : firstWithTag(q.postedAnySource, tag);
        if (specific == null && any == null) {
            return null;
        }
        boolean takeSpecific = any == null || specific != null && specific.postOrder < any.postOrder;
        RecvRequest r = takeSpecific ? specific : any;
        (takeSpecific ? own : q.postedAnySource).removeFirstOccurrence(r);
        return r;
    }

    private static RecvRequest firstWithTag(ArrayDeque<RecvRequest> d, int tag) {
        RecvRequest head = d.peekFirst(); // the usual match: no iterator to allocate
        if (head == null || head.tag == P2pEngine.ANY || head.tag == tag) {
            return head;
        }
        for (RecvRequest r : d) {
            if (r.tag == P2pEngine.ANY || r.tag == tag) {
                return r;
            }
        }
        return null;
    }

    /** Removes the posted receives {@code which} selects, adding them to {@code into}. */
    void drainPosted(Predicate<RecvRequest> which, List<? super RecvRequest> into) {
        for (ContextQueues q : allContexts()) {
            drain(q.postedAnySource, which, into);
            for (ArrayDeque<RecvRequest> d : q.postedBySource) {
                if (d != null) {
                    drain(d, which, into);
                }
            }
        }
    }

    private static void drain(ArrayDeque<RecvRequest> d, Predicate<RecvRequest> which,
            List<? super RecvRequest> into) {
        for (Iterator<RecvRequest> it = d.iterator(); it.hasNext();) {
            RecvRequest r = it.next();
            if (which.test(r)) {
                it.remove();
                into.add(r);
            }
        }
    }

    // ---- unexpected messages ------------------------------------------------------------------------

    /** Queues a message from {@code src} that no posted receive matched: an eager payload, or (null) an RTS. */
    void addUnexpected(int src, Frame frame, ByteBuf payload) {
        Incoming in = new Incoming(nextArrival++, src, frame.context(), frame.tag(), frame.length(), payload,
                frame.sendId());
        deque(queues(frame.context(), true).unexpectedBySource, src).addLast(in);
    }

    /** The oldest unexpected message a receive for ({@code src}, {@code context}, {@code tag}) matches, or null. */
    Incoming peekUnexpected(int src, int context, int tag) {
        ContextQueues q = queues(context, false);
        if (q == null) {
            return null;
        }
        if (src != P2pEngine.ANY) {
            ArrayDeque<Incoming> d = q.unexpectedBySource[src];
            return d == null ? null : firstWithTagIn(d, tag);
        }
        Incoming best = null;
        for (ArrayDeque<Incoming> d : q.unexpectedBySource) {
            if (d != null && !d.isEmpty()) {
                Incoming in = firstWithTagIn(d, tag);
                if (in != null && (best == null || in.arrival() < best.arrival())) {
                    best = in;
                }
            }
        }
        return best;
    }

    /** As {@link #peekUnexpected}, removing the message. */
    Incoming takeUnexpected(int src, int context, int tag) {
        Incoming in = peekUnexpected(src, context, tag);
        if (in != null) {
            ArrayDeque<Incoming> d = queues(context, false).unexpectedBySource[in.src()];
            if (d.peekFirst() == in) {
                d.pollFirst();
            } else {
                // by identity: a record's equals would compare the components, payload bytes included
                for (Iterator<Incoming> it = d.iterator(); it.hasNext(); ) {
                    if (it.next() == in) {
                        it.remove();
                        break;
                    }
                }
            }
        }
        return in;
    }

    private static Incoming firstWithTagIn(ArrayDeque<Incoming> d, int tag) {
        if (tag == P2pEngine.ANY) {
            return d.peekFirst();
        }
        for (Incoming in : d) {
            if (in.tag() == tag) {
                return in;
            }
        }
        return null;
    }

    /** Removes every unexpected message, adding them to {@code into}. */
    void drainUnexpected(List<Incoming> into) {
        for (ContextQueues q : allContexts()) {
            for (ArrayDeque<Incoming> d : q.unexpectedBySource) {
                if (d != null) {
                    into.addAll(d);
                    d.clear();
                }
            }
        }
    }

    /** The unexpected messages on the contexts {@code which} accepts, left queued. */
    List<Incoming> unexpectedOn(java.util.function.IntPredicate which) {
        List<Incoming> found = new java.util.ArrayList<>();
        for (ContextQueues q : allContexts()) {
            for (ArrayDeque<Incoming> d : q.unexpectedBySource) {
                if (d != null) {
                    for (Incoming in : d) {
                        if (which.test(in.context())) {
                            found.add(in);
                        }
                    }
                }
            }
        }
        return found;
    }

    private List<ContextQueues> allContexts() {
        List<ContextQueues> all = new java.util.ArrayList<>(farContexts.values());
        for (ContextQueues q : contexts) {
            if (q != null) {
                all.add(q);
            }
        }
        return all;
    }
}

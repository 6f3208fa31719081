package io.mpirunj.runtime.transport.tcp;

import java.io.IOException;

/**
 * A peer broke the wire protocol (bad length, malformed header, wrong token or version, a frame
 * where none may be). The connection it arrived on is closed; the message says what was wrong.
 */
public final class TcpProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public TcpProtocolException(String message) {
        super(message);
    }
}

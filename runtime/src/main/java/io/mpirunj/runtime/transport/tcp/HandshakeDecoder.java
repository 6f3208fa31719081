package io.mpirunj.runtime.transport.tcp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * The base of the two handshake handlers: Netty's {@link ByteToMessageDecoder} (its accumulation, and the
 * hand-over of bytes behind the handshake to the handlers that replace it) with the events it inherits from
 * Netty's annotated adapter passed on here instead, so that no handler of a connection carries an annotation
 * Netty reads by reflection ({@link PlainInboundHandler} says why that matters). Never shared.
 */
abstract class HandshakeDecoder extends ByteToMessageDecoder {
    @Override
    public final boolean isSharable() {
        return false; // as the class says, without reading its annotations
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelActive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.fireExceptionCaught(cause);
    }
}

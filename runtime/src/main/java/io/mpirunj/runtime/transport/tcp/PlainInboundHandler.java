package io.mpirunj.runtime.transport.tcp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;

/**
 * The base of the transport's inbound handlers in place of Netty's {@code ChannelInboundHandlerAdapter}:
 * every event passed on, and no annotation anywhere. Netty reads its adapters' {@code @Skip} and
 * {@code @Sharable} annotations by reflection for each handler class (once per thread), and the JDK builds
 * an annotation proxy class for each annotation type and, from the 16th annotation instance on, a
 * constructor accessor class: bytecode generated and loaded in every rank JVM, never archived. Handlers
 * without annotations cost Netty a method look-up each, nothing more ({@code TcpTransportTest} checks every handler).
 * The price is that Netty calls the pass-through methods instead of skipping this handler: one call for
 * each read batch's read-complete event, otherwise for events that are rare on a connection (registration,
 * activity, writability, user events). Not being one of Netty's adapters, such a handler is not checked for
 * being added to two pipelines: each of ours is made for one channel.
 */
abstract class PlainInboundHandler implements ChannelInboundHandler {
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelUnregistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        ctx.fireExceptionCaught(cause);
    }
}

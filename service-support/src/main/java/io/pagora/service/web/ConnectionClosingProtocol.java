package io.pagora.service.web;

import io.pagora.kernel.Check;
import java.util.function.Consumer;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.AbstractEndpoint;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's NIO HTTP/1.1 protocol, telling {@link #observeCloses} the id of every connection it closes (the id a
 * request's {@code getServletConnection().getConnectionId()} names), whoever closed it first: the client, an idle
 * time-out, or an answer with {@code Connection: close}. {@link ParticipantConnections} forgets a connection then,
 * not a keep-alive timeout later, so a client that opens a connection per request is not counted as holding them.
 *
 * <p>Tomcat tells its endpoint's handler of every connection it releases ({@code SocketWrapperBase.close}); this
 * wraps that handler and passes everything else on unchanged.
 */
public class ConnectionClosingProtocol extends Http11NioProtocol {

    /** The protocol name Tomcat gives HTTP/1.1 connections' ids (Http11Processor's). */
    private static final String HTTP_1_1 = "http/1.1";

    /** Calls {@code closed} with the id of each connection once Tomcat closes it. Once, before the server starts. */
    public void observeCloses(Consumer<String> closed) {
        AbstractEndpoint<NioChannel, ?> endpoint = getEndpoint();
        Check.that(!(endpoint.getHandler() instanceof ClosesObserved), "connection closes are observed once");
        endpoint.setHandler(new ClosesObserved(endpoint.getHandler(), closed));
    }

    private record ClosesObserved(AbstractEndpoint.Handler<NioChannel> handler, Consumer<String> closed)
            implements AbstractEndpoint.Handler<NioChannel> {

        @Override
        public SocketState process(SocketWrapperBase<NioChannel> socket, SocketEvent event) {
            return handler.process(socket, event);
        }

        @Override
        public Object getGlobal() {
            return handler.getGlobal();
        }

        @Override
        public void release(SocketWrapperBase<NioChannel> socket) {
            try {
                handler.release(socket);
            } finally {
                closed.accept(socket.getServletConnection(HTTP_1_1, "").getConnectionId());
            }
        }

        @Override
        public void pause() {
            handler.pause();
        }

        @Override
        public void recycle() {
            handler.recycle();
        }
    }
}

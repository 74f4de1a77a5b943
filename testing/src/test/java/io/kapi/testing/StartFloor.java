package io.kapi.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * What any first start of a server built like Kapi costs a fresh JVM before a line of Kapi runs, for
 * {@code bench/testing-start.sh cold-floor}: Jackson's object mapper made and used once, four P-256 key
 * pairs (CA, serving, client, service-account signer) and three signatures, and a Jetty HTTPS listener
 * on loopback, its logging quieted as the library's is. A host's cold start-to-ready divided by this floor is a figure that does not move with
 * the host's speed as much as either does.
 */
final class StartFloor {

    private StartFloor() {
    }

    /** Does the floor's work and leaves the listener running; the caller stops the returned server. */
    static Server start() throws Exception {
        Quiet.logs(); // as a server's start does: Jetty logs through java.util.logging either way
        Thread json = Thread.ofPlatform().name("floor-json").start(StartFloor::useJackson);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ca = generator.generateKeyPair();
        for (int i = 0; i < 3; i++) {
            generator.generateKeyPair();
        }
        Signature signature = Signature.getInstance("SHA256withECDSA");
        for (int i = 0; i < 3; i++) {
            signature.initSign(ca.getPrivate());
            signature.update(new byte[512]);
            signature.sign();
        }
        json.join();
        Server server = new Server();
        SslContextFactory.Server tls = new SslContextFactory.Server();
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        tls.setSslContext(context);
        ServerConnector connector = new ServerConnector(server, tls, new HttpConnectionFactory(new HttpConfiguration()));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                callback.succeeded();
                return true;
            }
        });
        server.start();
        return server;
    }

    private static void useJackson() {
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.readTree("{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"a\"}},1,true]}");
            mapper.writeValueAsString(mapper.createObjectNode().put("kind", "Status"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

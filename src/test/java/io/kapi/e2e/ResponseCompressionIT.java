package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large responses gzip-compressed for clients that accept it, as kube-apiserver's APIResponseCompression
 * (on by default): kubectl (whose Go transport asks for gzip and undoes it) and curl against a real server.
 */
@DisplayName("response compression with kubectl and curl")
final class ResponseCompressionIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();
    @RegisterExtension
    static final KapiExtension OFF = new KapiExtension("--feature-gates=APIResponseCompression=false");

    private static final String NS = "e2e-gzip";
    private static final int CONFIG_MAPS = 40;
    private static final String LIST = "/api/v1/namespaces/" + NS + "/configmaps";

    @TempDir
    static Path dir;

    @BeforeAll
    static void configMaps() {
        for (KapiExtension kapi : List.of(KAPI, OFF)) {
            Kubectl k = kapi.kubectl();
            k.runWithInput(Manifests.namespace(NS), "create", "-f", "-").assertOk();
            StringBuilder list = new StringBuilder("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
            for (int i = 0; i < CONFIG_MAPS; i++) {
                list.append(i == 0 ? "" : ",").append("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":")
                        .append("{\"name\":\"cm-").append(i).append("\"},\"data\":{\"d\":\"")
                        .append(Integer.toString(i).repeat(4096 / Integer.toString(i).length())).append("\"}}");
            }
            k.runWithInput(list.append("]}").toString(), "create", "-n", NS, "-f", "-").assertOk();
        }
    }

    /** What curl got: the response's header lines (names in lower case) and its body's bytes. */
    private record Fetched(List<String> headers, byte[] body) {

        boolean has(String header) {
            return headers.contains(header.toLowerCase(Locale.ROOT));
        }
    }

    /** curl with the admin's certificate: the path, with {@code headers}, over HTTP/2, the body kept as sent. */
    private static Fetched curl(KapiExtension kapi, String path, String... headers) throws Exception {
        Kubeconfig kubeconfig = kapi.kapi().kubeconfig();
        Path ca = Files.writeString(dir.resolve("ca.crt"), kubeconfig.caPem());
        Path cert = Files.writeString(dir.resolve("admin.crt"), kubeconfig.clientCertPem().orElseThrow());
        Path key = Files.writeString(dir.resolve("admin.key"), kubeconfig.clientKeyPem().orElseThrow());
        Path head = dir.resolve("head.txt");
        Path body = dir.resolve("body.bin");
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--http2", "--cacert", ca.toString(),
                "--cert", cert.toString(), "--key", key.toString(), "-D", head.toString(), "-o", body.toString()));
        for (String header : headers) {
            command.addAll(List.of("-H", header));
        }
        command.add(kubeconfig.server() + path);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        List<String> lines = Files.readAllLines(head).stream().map(String::strip)
                .map(l -> l.toLowerCase(Locale.ROOT)).toList();
        return new Fetched(lines, Files.readAllBytes(body));
    }

    private static byte[] gunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return in.readAllBytes();
        }
    }

    @Test
    @DisplayName("kubectl reads a list of 160 KiB of configmaps, compressed on the wire, in full")
    void kubectlReadsCompressedList() {
        JsonNode list = KAPI.kubectl().run("get", "configmaps", "-n", NS, "-o", "json").assertOk().json();
        assertEquals(CONFIG_MAPS + 1, list.get("items").size()); // and kube-root-ca.crt
        for (JsonNode item : list.get("items")) {
            if (item.at("/metadata/name").asText().equals("cm-7")) {
                assertEquals("7".repeat(4096), item.at("/data/d").asText());
            }
        }
    }

    @Test
    @DisplayName("a list over 128 KiB comes gzip-compressed with Vary: Accept-Encoding, JSON and protobuf alike; "
            + "the same list uncompressed to a client that does not ask")
    void largeListCompressed() throws Exception {
        Fetched plain = curl(KAPI, LIST);
        assertFalse(plain.has("content-encoding: gzip"));
        Fetched gzip = curl(KAPI, LIST, "Accept-Encoding: gzip");
        assertTrue(gzip.has("content-encoding: gzip"), gzip.headers().toString());
        assertTrue(gzip.has("vary: accept-encoding"), gzip.headers().toString());
        assertTrue(gzip.body().length < plain.body().length / 4, gzip.body().length + " bytes");
        JsonMapper json = new JsonMapper();
        assertEquals(json.readTree(plain.body()).get("items"), json.readTree(gunzip(gzip.body())).get("items"));

        Fetched protobuf = curl(KAPI, LIST, "Accept-Encoding: deflate, gzip",
                "Accept: application/vnd.kubernetes.protobuf");
        assertTrue(protobuf.has("content-encoding: gzip"), protobuf.headers().toString());
        byte[] message = gunzip(protobuf.body());
        assertArrayEquals(new byte[] {'k', '8', 's', 0}, java.util.Arrays.copyOf(message, 4));
    }

    @Test
    @DisplayName("a small GET, a watch and a server with APIResponseCompression=false answer uncompressed")
    void otherwiseAsIs() throws Exception {
        Fetched one = curl(KAPI, LIST + "/cm-1", "Accept-Encoding: gzip");
        assertFalse(one.has("content-encoding: gzip"), one.headers().toString());
        assertEquals("cm-1", new JsonMapper().readTree(one.body()).at("/metadata/name").asText());
        Fetched watch = curl(KAPI, LIST + "?watch=1&timeoutSeconds=1", "Accept-Encoding: gzip");
        assertFalse(watch.has("content-encoding: gzip"), watch.headers().toString());
        assertTrue(new String(watch.body(), StandardCharsets.UTF_8).startsWith("{\"type\":\"ADDED\""));
        Fetched off = curl(OFF, LIST, "Accept-Encoding: gzip");
        assertFalse(off.has("content-encoding: gzip"), off.headers().toString());
        assertEquals(CONFIG_MAPS + 1, new JsonMapper().readTree(off.body()).get("items").size());
    }
}

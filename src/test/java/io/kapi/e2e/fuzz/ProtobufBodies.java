package io.kapi.e2e.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Request bodies in kube's protobuf encoding ({@code k8s\0} and a {@code runtime.Unknown}), taken from the
 * server's own answers for a ConfigMap, a Secret, a Pod and a Deployment and then broken: truncated, bytes
 * flipped, lengths and varints that overflow or point past the end, deeply nested and group-framed unknown
 * fields, a wrong magic or kind, and sent to the kinds' create, update and patch paths (dry runs, so that the
 * stored object stays as read). An untouched update must be {@code 200}; nothing may be {@code 5xx} or hang.
 */
final class ProtobufBodies implements Family {

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String[][] OBJECTS = {
            {"/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"fz-pb\"},\"data\":{\"a\":\"b\"}}"},
            {"/api/v1/namespaces/default/secrets", "{\"metadata\":{\"name\":\"fz-pb\"},\"stringData\":{\"a\":\"b\"}}"},
            {"/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"fz-pb\",\"labels\":{\"a\":\"b\"}},\"spec\":"
                    + "{\"automountServiceAccountToken\":false,\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}"},
            {"/apis/apps/v1/namespaces/default/deployments", "{\"metadata\":{\"name\":\"fz-pb\"},\"spec\":{\"selector\":"
                    + "{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":"
                    + "{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}"}};

    @Override
    public void run(Target target, Random random, int count, Tally tally) throws Exception {
        target.admin("POST", "/api/v1/namespaces/default/serviceaccounts", "{\"metadata\":{\"name\":\"default\"}}");
        List<byte[]> encoded = new ArrayList<>();
        for (String[] o : OBJECTS) {
            target.admin("POST", o[0], o[1]);
            Target.Answer a = target.admin("GET", o[0] + "/fz-pb", Map.of("Accept", PROTOBUF), new byte[0]);
            if (a.status() != 200) {
                throw new IllegalStateException("GET " + o[0] + "/fz-pb as protobuf: " + a.outcome() + " " + a.text());
            }
            encoded.add(a.body());
        }
        for (int i = 0; i < count; i++) {
            int which = random.nextInt(OBJECTS.length);
            String collection = OBJECTS[which][0];
            byte[] body = encoded.get(which);
            int mutation = random.nextInt(10);
            byte[] sent = mutation == 0 ? body : mutate(body, mutation, random);
            String method;
            String path;
            switch (random.nextInt(4)) {
                case 0 -> {
                    method = "POST";
                    path = collection + "?dryRun=All";
                }
                case 1 -> {
                    method = "PATCH";
                    path = collection + "/fz-pb";
                }
                default -> {
                    method = "PUT";
                    path = collection + "/fz-pb?dryRun=All"; // the stored object stays as read
                }
            }
            Target.Answer a = target.admin(method, path, Map.of("Content-Type", PROTOBUF, "Accept",
                    random.nextBoolean() ? PROTOBUF : "application/json"), sent);
            String what = method + " " + path + " mutation " + mutation + " " + sent.length + " bytes";
            if (mutation == 0 && method.equals("PUT")) {
                tally.expect("200", a, what + " (untouched)");
            } else {
                tally.count(a, what);
            }
        }
    }

    private static byte[] mutate(byte[] body, int mutation, Random random) {
        int at = 4 + random.nextInt(body.length - 4);
        return switch (mutation) {
            case 1 -> Arrays.copyOf(body, random.nextInt(body.length));
            case 2 -> {
                byte[] b = body.clone();
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    b[4 + random.nextInt(b.length - 4)] ^= (byte) (1 + random.nextInt(255));
                }
                yield b;
            }
            case 3 -> splice(body, at, new byte[]{(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f});
            case 4 -> splice(body, at, repeat((byte) 0xff, 11)); // a varint longer than 64 bits
            case 5 -> splice(body, at, nested(random.nextInt(3) == 0 ? 100_000 : 2_000 + random.nextInt(20_000),
                    random.nextBoolean()));
            case 6 -> {
                byte[] b = body.clone();
                b[random.nextInt(4)] ^= 0x20; // the magic
                yield b;
            }
            case 7 -> kindSwapped(body, random);
            case 8 -> splice(body, at, field(2, repeat((byte) 'x', random.nextInt(3) == 0 ? 2_000_000 : 1000)));
            default -> {
                byte[] b = Arrays.copyOf(body, 4 + random.nextInt(64));
                random.nextBytes(b);
                System.arraycopy(new byte[]{'k', '8', 's', 0}, 0, b, 0, 4);
                yield b;
            }
        };
    }

    /** Unknown fields nested {@code depth} deep: length-delimited messages, or start and end groups. */
    private static byte[] nested(int depth, boolean groups) {
        if (groups) {
            byte[] b = new byte[depth * 2];
            Arrays.fill(b, 0, depth, (byte) ((20 << 3) | 3));
            Arrays.fill(b, depth, 2 * depth, (byte) ((20 << 3) | 4));
            return b;
        }
        byte[] inner = new byte[0];
        for (int i = 0; i < Math.min(depth, 3_000); i++) {
            inner = field(20, inner);
        }
        return inner;
    }

    /** The envelope's kind replaced by another kind's. */
    private static byte[] kindSwapped(byte[] body, Random random) {
        String text = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1);
        String[] kinds = {"ConfigMap", "Secret", "Pod", "Deployment"};
        String from = kinds[random.nextInt(kinds.length)];
        String to = new String[]{"Secret", "Namespace", "Status", "Pod", "DeploymentList"}[random.nextInt(5)];
        return text.replace((char) from.length() + from, (char) to.length() + to)
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static byte[] field(int number, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        varint(out, (number << 3) | 2);
        varint(out, value.length);
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static byte[] splice(byte[] body, int at, byte[] insert) {
        byte[] b = new byte[body.length + insert.length];
        System.arraycopy(body, 0, b, 0, at);
        System.arraycopy(insert, 0, b, at, insert.length);
        System.arraycopy(body, at, b, at + insert.length, body.length - at);
        return b;
    }

    private static byte[] repeat(byte value, int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, value);
        return b;
    }
}

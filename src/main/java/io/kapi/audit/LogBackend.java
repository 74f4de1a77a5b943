package io.kapi.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's log backend: one line per event, as JSON ({@code --audit-log-format=json}) or as the legacy
 * text line, to the rotated file or to standard output ({@code --audit-log-path=-}). Writes are
 * serialised; a failed write is reported (false) and logged, and the caller decides what it costs.
 */
final class LogBackend implements Backend {

    private static final System.Logger LOG = System.getLogger(LogBackend.class.getName());

    private final RotatingFile file;
    private final PrintStream stdout;
    private final boolean legacy;
    private final AuditMetrics metrics;
    private final CombinedWrites writes;

    /** @param file null to write to {@code stdout} */
    LogBackend(RotatingFile file, PrintStream stdout, boolean legacy, AuditMetrics metrics) {
        this.file = file;
        this.stdout = stdout;
        this.legacy = legacy;
        this.metrics = metrics;
        this.writes = new CombinedWrites(file != null ? file::write : data -> {
            stdout.write(data);
            stdout.flush();
        });
    }

    @Override
    public boolean process(List<ObjectNode> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(events.size() * 1024);
        try {
            for (ObjectNode e : events) {
                if (legacy) {
                    out.write(legacy(e).getBytes(StandardCharsets.UTF_8));
                } else {
                    Json.MAPPER.writeValue(out, e);
                }
                out.write('\n');
            }
            writes.write(out.toByteArray());
            return true;
        } catch (IOException | RuntimeException e) {
            metrics.error(name(), events.size());
            LOG.log(Level.ERROR, "Error in audit plugin ''log'' affecting {0} audit events: {1}", events.size(),
                    e.toString());
            return false;
        }
    }

    @Override
    public void shutdown() {
        try {
            writes.closeWith(() -> {
                if (file != null) {
                    file.close();
                }
            });
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the audit log: {0}", e.toString());
        }
    }

    @Override
    public String name() {
        return "log";
    }

    /** kube's {@code EventString}: the one-line text of {@code --audit-log-format=legacy}. */
    static String legacy(JsonNode e) {
        JsonNode user = e.path("user");
        String username = "<none>";
        String groups = "<none>";
        if (!user.path("username").asText("").isEmpty()) {
            username = user.path("username").asText();
            if (!user.path("groups").isEmpty()) {
                groups = quotedList(user.path("groups"));
            }
        }
        String as = "<self>";
        String asGroups = "<lookup>";
        JsonNode imp = e.path("impersonatedUser");
        if (!imp.isMissingNode()) {
            as = imp.path("username").asText("");
            if (imp.has("groups")) {
                asGroups = quotedList(imp.path("groups"));
            }
        }
        String namespace = e.path("objectRef").path("namespace").asText("");
        JsonNode status = e.path("responseStatus");
        String response = status.isMissingNode() ? "<deferred>" : String.valueOf(status.path("code").asInt());
        String ip = e.path("sourceIPs").isEmpty() ? "<unknown>" : e.path("sourceIPs").get(0).asText();
        return "%s AUDIT: id=%s stage=%s ip=%s method=%s user=%s groups=%s as=%s asgroups=%s user-agent=%s namespace=%s uri=%s response=\"%s\""
                .formatted(rfc3339Nano(e.path("requestReceivedTimestamp").asText()), q(e.path("auditID").asText()),
                        q(e.path("stage").asText()), q(ip), q(e.path("verb").asText()), q(username), q(groups), q(as),
                        q(asGroups), q(e.path("userAgent").asText("")), q(namespace.isEmpty() ? "<none>" : namespace),
                        q(e.path("requestURI").asText()), response);
    }

    private static String q(String s) {
        return GoStrings.quote(s);
    }

    private static String quotedList(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(g -> out.add(GoStrings.quote(g.asText())));
        return String.join(",", out);
    }

    /** Go's {@code time.RFC3339Nano}: trailing zeros of the fraction dropped. */
    private static String rfc3339Nano(String micro) {
        int dot = micro.indexOf('.');
        if (dot < 0 || !micro.endsWith("Z")) {
            return micro;
        }
        String fraction = micro.substring(dot + 1, micro.length() - 1).replaceAll("0+$", "");
        return micro.substring(0, dot) + (fraction.isEmpty() ? "" : "." + fraction) + "Z";
    }
}

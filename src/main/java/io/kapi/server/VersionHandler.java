package io.kapi.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;

/**
 * Serves {@code /version} as kube-apiserver's {@code version.Info}. The Kubernetes version is the API
 * level Kapi implements; {@code gitVersion} carries Kapi's own version as a pre-release suffix
 * ({@code v1.34.0-kapi.0.1.0}), which kubectl's version skew check parses like any other.
 * Build details come from {@code build-info.properties}, written by Maven.
 */
public final class VersionHandler implements RestHandler {

    static final String KUBE_MAJOR = "1";
    static final String KUBE_MINOR = "34";
    private final byte[] body;

    VersionHandler() {
        ObjectNode info = Json.object();
        info().forEach(info::put);
        try {
            body = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(info);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Serves /version only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        if (!request.path().equals("/version") && !request.path().equals("/version/")) {
            return null;
        }
        return RestResponse.bytes(200, "application/json", body);
    }

    /** The fields of {@code /version} in its order (also {@code kubernetes_build_info}'s labels). */
    public static java.util.Map<String, String> info() {
        Properties build = buildInfo();
        java.util.Map<String, String> info = new java.util.LinkedHashMap<>();
        info.put("major", KUBE_MAJOR);
        info.put("minor", KUBE_MINOR);
        info.put("gitVersion", gitVersion(build));
        info.put("gitCommit", property(build, "commit"));
        String dirty = property(build, "dirty");
        info.put("gitTreeState", dirty.isEmpty() ? "" : dirty.equals("true") ? "dirty" : "clean");
        info.put("buildDate", property(build, "date"));
        info.put("goVersion", "java" + Runtime.version().feature() + "." + Runtime.version().interim()
                + "." + Runtime.version().update());
        info.put("compiler", "javac");
        info.put("platform", platform());
        return info;
    }

    /** {@code v1.34.0-kapi.<Kapi's version>}, what {@code /version} and {@code --version} report. */
    static String gitVersion() {
        return gitVersion(buildInfo());
    }

    private static String gitVersion(Properties build) {
        String version = property(build, "version");
        String kapiVersion = (version.isEmpty() ? "0.0.0" : version).replace("-SNAPSHOT", "");
        return "v" + KUBE_MAJOR + "." + KUBE_MINOR + ".0-kapi." + kapiVersion;
    }

    /** Go's {@code GOOS/GOARCH} for this JVM, e.g. {@code linux/amd64}. */
    static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        os = os.startsWith("mac") ? "darwin" : os.startsWith("windows") ? "windows" : os;
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            case String other -> other;
        };
        return os + "/" + arch;
    }

    /** A build property, or "" when the build did not fill it in. */
    private static String property(Properties build, String name) {
        String value = build.getProperty(name, "");
        return value.startsWith("${") ? "" : value;
    }

    private static Properties buildInfo() {
        Properties p = new Properties();
        try (InputStream in = VersionHandler.class.getResourceAsStream("build-info.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}

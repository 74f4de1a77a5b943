package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's URL library: {@code url("https://host:8443/p?q=1")} (an absolute URL or an absolute path, as Go's
 * {@code url.ParseRequestURI}), {@code isURL}, {@code getScheme}, {@code getHost}, {@code getHostname},
 * {@code getPort}, {@code getEscapedPath}, {@code getQuery}.
 */
final class UrlLibrary implements CelLibrary {

    static final CelType URL = OpaqueType.create("kubernetes.URL");

    /** A parsed URL. */
    record Url(URI uri) {
        @Override
        public String toString() {
            return uri.toString();
        }
    }

    @Override
    public List<CelFunctionDecl> declarations() {
        CelType s = SimpleType.STRING;
        return List.of(
                newFunctionDeclaration("url", newGlobalOverload("string_to_url", URL, s)),
                newFunctionDeclaration("isURL", newGlobalOverload("is_url_string", SimpleType.BOOL, s)),
                newFunctionDeclaration("getScheme", newMemberOverload("url_get_scheme", s, URL)),
                newFunctionDeclaration("getHost", newMemberOverload("url_get_host", s, URL)),
                newFunctionDeclaration("getHostname", newMemberOverload("url_get_hostname", s, URL)),
                newFunctionDeclaration("getPort", newMemberOverload("url_get_port", s, URL)),
                newFunctionDeclaration("getEscapedPath", newMemberOverload("url_get_escaped_path", s, URL)),
                newFunctionDeclaration("getQuery", newMemberOverload("url_get_query",
                        MapType.create(s, ListType.create(s)), URL)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_url", String.class, UrlLibrary::parse),
                CelFunctionBinding.from("is_url_string", String.class, UrlLibrary::isUrl),
                CelFunctionBinding.from("url_get_scheme", Url.class, u -> nonNull(u.uri().getScheme())),
                CelFunctionBinding.from("url_get_host", Url.class, u -> nonNull(u.uri().getRawAuthority())
                        .replaceFirst("^[^@]*@", "")),
                CelFunctionBinding.from("url_get_hostname", Url.class, UrlLibrary::hostname),
                CelFunctionBinding.from("url_get_port", Url.class, u -> u.uri().getPort() < 0 ? ""
                        : Integer.toString(u.uri().getPort())),
                CelFunctionBinding.from("url_get_escaped_path", Url.class, u -> nonNull(u.uri().getRawPath())),
                CelFunctionBinding.from("url_get_query", Url.class, UrlLibrary::query));
    }

    private static Url parse(String text) throws CelEvaluationException {
        try {
            URI uri = new URI(text);
            if (!uri.isAbsolute() && !text.startsWith("/")) {
                throw new URISyntaxException(text, "invalid URI for request");
            }
            return new Url(uri);
        } catch (URISyntaxException e) {
            throw new CelEvaluationException("URL parse error during conversion from string: parse \"" + text
                    + "\": invalid URI for request");
        }
    }

    private static boolean isUrl(String text) {
        try {
            parse(text);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }

    private static String hostname(Url u) {
        String host = nonNull(u.uri().getHost());
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static Map<String, List<String>> query(Url u) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        String raw = u.uri().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            query.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return query;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}

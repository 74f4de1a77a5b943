package io.kapi.endpoint.codec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One media range of a Content-Type or Accept header: {@code application/json;as=Table;v=v1;g=meta.k8s.io}.
 * Type, subtype and parameter names are lower-cased; parameter values keep their case ({@code as=Table}).
 *
 * @param type e.g. {@code application}, or {@code *}
 * @param subtype e.g. {@code json}, or {@code *}
 * @param params the parameters other than {@code q}, in header order
 * @param q the quality, 1 when absent
 */
public record MediaType(String type, String subtype, Map<String, String> params, double q) {

    /** Parses one media type; a malformed one (no slash, nothing before the first {@code ;}) yields null. */
    public static MediaType parse(String text) {
        String[] parts = text.split(";", -1);
        String full = parts[0].trim().toLowerCase(Locale.ROOT);
        int slash = full.indexOf('/');
        if (slash <= 0 || slash == full.length() - 1) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        double q = 1;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = unquote(p.substring(eq + 1).trim());
            if (name.equals("q")) {
                q = parseQ(value);
            } else {
                params.put(name, value);
            }
        }
        return new MediaType(full.substring(0, slash).trim(), full.substring(slash + 1).trim(), params, q);
    }

    /**
     * Parses an Accept header into its media ranges, best first: by q, then concrete types before
     * wildcards; ties keep header order. Ranges with {@code q=0} and malformed ranges are dropped.
     */
    public static List<MediaType> parseAccept(String header) {
        List<MediaType> out = new ArrayList<>();
        if (header == null) {
            return out;
        }
        for (String part : header.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            MediaType m = parse(part);
            if (m != null && m.q > 0) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparingDouble((MediaType m) -> -m.q)
                .thenComparingInt(m -> m.type.equals("*") ? 1 : 0)
                .thenComparingInt(m -> m.subtype.equals("*") ? 1 : 0));
        return out;
    }

    /** {@code type/subtype} without parameters. */
    public String essence() {
        return type + "/" + subtype;
    }

    /** The value of parameter {@code name} (lower case), or null. */
    public String param(String name) {
        return params.get(name);
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    private static double parseQ(String v) {
        try {
            double q = Double.parseDouble(v);
            return q < 0 ? 0 : Math.min(q, 1);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}

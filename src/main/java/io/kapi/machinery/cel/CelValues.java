package io.kapi.machinery.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import dev.cel.common.values.NullValue;
import io.kapi.machinery.Json;
import io.kapi.machinery.quantity.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JSON trees as CEL values and back, without a schema ({@code dyn}, as kube's admission policies see
 * objects): objects are maps, arrays lists, integers {@code int}, other numbers {@code double}, null
 * CEL's null. {@link CelSchema#value} converts with a schema (timestamps, durations, bytes).
 */
public final class CelValues {

    private CelValues() {
    }

    /** The CEL value of a JSON tree; null for a missing node. */
    public static Object of(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return null;
        }
        return switch (node.getNodeType()) {
            case OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                node.properties().forEach(e -> map.put(e.getKey(), of(e.getValue())));
                yield map;
            }
            case ARRAY -> {
                List<Object> list = new ArrayList<>(node.size());
                node.forEach(item -> list.add(of(item)));
                yield list;
            }
            case STRING -> node.textValue();
            case BOOLEAN -> node.booleanValue();
            case NUMBER -> number(node);
            case NULL -> NullValue.NULL_VALUE;
            default -> node.asText();
        };
    }

    private static Object number(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isBigDecimal()) {
            BigDecimal d = node.decimalValue();
            if (d.stripTrailingZeros().scale() <= 0) {
                try {
                    return d.longValueExact();
                } catch (ArithmeticException e) {
                    return d.doubleValue();
                }
            }
        }
        return node.doubleValue();
    }

    /**
     * The JSON of a CEL result: maps and lists recursively, timestamps and durations in kube's text forms,
     * bytes in base64, quantities canonical; empty optionals are null.
     */
    public static JsonNode toJson(Object value) {
        return switch (value) {
            case null -> Json.NODES.nullNode();
            case NullValue n -> Json.NODES.nullNode();
            case JsonNode j -> j;
            case String s -> Json.NODES.textNode(s);
            case Boolean b -> Json.NODES.booleanNode(b);
            case Long l -> Json.NODES.numberNode(l);
            case Integer i -> Json.NODES.numberNode(i.longValue());
            case Double d -> Json.NODES.numberNode(d);
            case UnsignedLong u -> Json.NODES.numberNode(u.bigIntegerValue());
            case ByteString b -> Json.NODES.textNode(Base64.getEncoder().encodeToString(b.toByteArray()));
            case Instant t -> Json.NODES.textNode(t.toString());
            case Duration d -> Json.NODES.textNode(seconds(d));
            case Quantity q -> Json.NODES.textNode(q.toString());
            case Optional<?> o -> o.map(CelValues::toJson).orElse(Json.NODES.nullNode());
            case Map<?, ?> m -> {
                ObjectNode o = Json.object();
                m.forEach((k, v) -> o.set(String.valueOf(k), toJson(v)));
                yield o;
            }
            case Iterable<?> it -> {
                ArrayNode a = Json.MAPPER.createArrayNode();
                it.forEach(v -> a.add(toJson(v)));
                yield a;
            }
            default -> Json.NODES.textNode(String.valueOf(value));
        };
    }

    /** A duration as Go's protobuf JSON writes it: seconds with a fraction when needed, e.g. {@code 1.5s}. */
    private static String seconds(Duration d) {
        return new BigDecimal(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9)).stripTrailingZeros()
                .toPlainString() + "s";
    }
}

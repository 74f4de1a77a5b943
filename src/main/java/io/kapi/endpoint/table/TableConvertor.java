package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.schema.Schemas;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server-side printing: turns objects into the {@code meta.k8s.io} {@code Table} that {@code kubectl get}
 * asks for ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}), with kube-apiserver 1.34's
 * columns and cell text for the built-in kinds, and the default NAME / CREATED AT table for every other kind.
 *
 * <p>As kube-apiserver, the server always prints the wide form: priority-1 columns and their cells are
 * always there, and kubectl drops them unless {@code -o wide}. Cells are strings, integers or booleans;
 * ages are computed against the {@code now} the caller passes, so one response uses one clock reading.
 *
 * <p>Thread-safe; create one per server.
 */
public final class TableConvertor {

    private final Map<String, KindPrinter> printers;
    private final Descriptions descriptions;
    private final Map<KindPrinter, ArrayNode> headers = new ConcurrentHashMap<>();

    private TableConvertor(Descriptions descriptions) {
        this.printers = Printers.all();
        this.descriptions = descriptions;
    }

    /** A convertor whose column descriptions come from the built-in kinds' OpenAPI definitions. */
    public static TableConvertor create(Schemas schemas) {
        return new TableConvertor(Descriptions.from(schemas));
    }

    /** A convertor whose field-derived column descriptions are empty (for tests). */
    public static TableConvertor withoutSchemas() {
        return new TableConvertor(Descriptions.none());
    }

    /** Whether {@code group}/{@code kind} has its own columns (else it prints NAME and CREATED AT). */
    public boolean hasPrinter(String group, String kind) {
        return printers.containsKey(Printers.key(group, kind));
    }

    /**
     * The Table of a list response: one row per item, in order, and the list's metadata.
     *
     * @param resource the resource listed; its group and kind pick the printer
     * @param items the objects as stored (full, in the version served)
     * @param listMeta resourceVersion, continue and remainingItemCount of the list
     * @param options version, includeObject and noHeaders
     * @param now the time ages are measured to
     */
    public ObjectNode list(ApiResource resource, List<? extends JsonNode> items, ListMeta listMeta,
                           TableOptions options, Instant now) {
        KindPrinter printer = printer(resource);
        ObjectNode table = start(printer, listMeta, options);
        ArrayNode rows = table.putArray("rows");
        for (JsonNode item : items) {
            rows.add(row(printer, item, resource, options, now));
        }
        return table;
    }

    /** The Table of a single GET: one row, and the object's resourceVersion. */
    public ObjectNode single(ApiResource resource, JsonNode object, TableOptions options, Instant now) {
        KindPrinter printer = printer(resource);
        String rv = Obj.str(object, "metadata", "resourceVersion");
        ObjectNode table = start(printer, new ListMeta(rv, null, null), options);
        table.putArray("rows").add(row(printer, object, resource, options, now));
        return table;
    }

    /** The {@code columnDefinitions} of a resource's table. */
    public ArrayNode columnDefinitions(ApiResource resource) {
        return header(printer(resource)).deepCopy();
    }

    private KindPrinter printer(ApiResource resource) {
        return printers.getOrDefault(Printers.key(resource.group(), resource.kind()), Printers.DEFAULT);
    }

    private ObjectNode start(KindPrinter printer, ListMeta listMeta, TableOptions options) {
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", options.version().apiVersion());
        table.set("metadata", listMeta.toJson());
        if (!options.noHeaders()) {
            table.set("columnDefinitions", header(printer).deepCopy());
        }
        return table;
    }

    private ArrayNode header(KindPrinter printer) {
        return headers.computeIfAbsent(printer, p -> {
            ArrayNode defs = Json.MAPPER.createArrayNode();
            for (Column c : p.columns()) {
                defs.addObject()
                        .put("name", c.name())
                        .put("type", c.type())
                        .put("format", c.format())
                        .put("description", descriptions.of(c.doc()))
                        .put("priority", c.priority());
            }
            return defs;
        });
    }

    private static ObjectNode row(KindPrinter printer, JsonNode obj, ApiResource resource, TableOptions options,
                                  Instant now) {
        ObjectNode row = Json.object();
        ArrayNode cells = row.putArray("cells");
        for (Column c : printer.columns()) {
            cells.add(cell(c.cell().value(obj, now)));
        }
        if (printer.conditions() != null) {
            ArrayNode conditions = printer.conditions().of(obj);
            if (conditions != null && !conditions.isEmpty()) {
                row.set("conditions", conditions);
            }
        }
        switch (options.includeObject()) {
            case NONE -> row.putNull("object");
            case METADATA -> row.set("object", PartialObjectMetadata.of(obj, options.version()));
            case OBJECT -> row.set("object", withTypeMeta(obj, resource));
        }
        return row;
    }

    private static JsonNode cell(Object value) {
        return switch (value) {
            case null -> Json.MAPPER.nullNode();
            case String s -> Json.MAPPER.getNodeFactory().textNode(s);
            case Long l -> Json.MAPPER.getNodeFactory().numberNode(l);
            case Integer i -> Json.MAPPER.getNodeFactory().numberNode(i.longValue());
            case Boolean b -> Json.MAPPER.getNodeFactory().booleanNode(b);
            default -> Json.MAPPER.getNodeFactory().textNode(value.toString());
        };
    }

    /** The whole object, with apiVersion and kind set from the resource when the stored tree lacks them. */
    private static JsonNode withTypeMeta(JsonNode obj, ApiResource resource) {
        if (obj.hasNonNull("apiVersion") && obj.hasNonNull("kind") || !(obj instanceof ObjectNode o)) {
            return obj;
        }
        ObjectNode copy = Json.object();
        copy.put("apiVersion", resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version());
        copy.put("kind", resource.kind());
        o.properties().forEach(e -> {
            if (!copy.has(e.getKey())) {
                copy.set(e.getKey(), e.getValue());
            }
        });
        return copy;
    }
}

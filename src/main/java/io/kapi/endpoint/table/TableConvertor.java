package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.CpuShare;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.schema.Schemas;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.KindPrinter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Server-side printing: turns objects into the {@code meta.k8s.io} {@code Table} that {@code kubectl get}
 * asks for ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}), with kube-apiserver 1.34's
 * columns and cell text for the built-in kinds, the CRD's printer columns for custom resources, and the
 * default NAME / CREATED AT table for every other kind.
 *
 * <p>As kube-apiserver, the server always prints the wide form: priority-1 columns and their cells are
 * always there, and kubectl drops them unless {@code -o wide}. Cells are strings, integers, numbers,
 * booleans or null; ages are measured to the {@code now} the caller passes, so one response uses one clock
 * reading.
 *
 * <p>Watch: kube-apiserver sends the column definitions with the first event only; pass
 * {@link TableOptions#withoutHeaders()} for the events after it.
 *
 * <p>Thread-safe; create one per server.
 */
public final class TableConvertor {

    private final Descriptions descriptions;
    private final Function<ApiResource, Printing> printing;
    /** Printers of built-in kinds, by resource (a resource's printing never changes). */
    private final Map<ApiResource, ResourcePrinter> builtIn = new ConcurrentHashMap<>();
    /** Printers of custom resource versions, by resource and columns (a changed CRD gets a new one). */
    private final Map<CustomKey, ResourcePrinter> custom = new ConcurrentHashMap<>();

    private record CustomKey(ApiResource resource, JsonNode columns) {
    }

    private TableConvertor(Descriptions descriptions, Function<ApiResource, Printing> printing) {
        this.descriptions = descriptions;
        this.printing = printing;
    }

    /**
     * A convertor whose column descriptions come from the built-in kinds' OpenAPI definitions.
     *
     * @param printing how each resource prints, as its definition says; null for the default NAME / CREATED AT
     */
    public static TableConvertor create(Schemas schemas, Function<ApiResource, Printing> printing) {
        return new TableConvertor(Descriptions.from(schemas), printing);
    }

    /** A convertor whose field-derived column descriptions are empty (for tests). */
    public static TableConvertor withoutSchemas(Function<ApiResource, Printing> printing) {
        return new TableConvertor(Descriptions.none(), printing);
    }

    /** A convertor that prints every resource with the default NAME / CREATED AT columns (for tests). */
    public static TableConvertor withoutSchemas() {
        return withoutSchemas(r -> null);
    }

    /**
     * The printer of a resource, as its {@link Printing} says: a custom resource's from its printer columns, a
     * built-in's own, or the default NAME / CREATED AT printer for any other.
     */
    public ResourcePrinter printer(ApiResource resource) {
        return switch (printing.apply(resource)) {
            case Printing.Custom c -> {
                if (custom.size() > 4096) {
                    custom.clear();
                }
                yield custom.computeIfAbsent(new CustomKey(resource, c.printerColumns()),
                        k -> customResourcePrinter(resource, c.printerColumns()));
            }
            case Printing.Builtin b -> builtIn(resource, () -> render(b.printer().get(), resource, b.read()));
            case null -> builtIn(resource, () -> render(Printers.DEFAULT, resource, UnaryOperator.identity()));
        };
    }

    private ResourcePrinter builtIn(ApiResource resource, Supplier<ResourcePrinter> make) {
        ResourcePrinter p = builtIn.get(resource);
        if (p != null) {
            return p;
        }
        if (builtIn.size() > 4096) {
            builtIn.clear();
        }
        return builtIn.computeIfAbsent(resource, r -> make.get());
    }

    /**
     * The printer of a custom resource: NAME, then the CRD version's {@code additionalPrinterColumns}
     * ({@code name, type, format, description, priority, jsonPath}); AGE when there are none. Build it once
     * per CRD version and keep it: building parses the JSONPaths.
     */
    public ResourcePrinter customResourcePrinter(ApiResource resource, JsonNode additionalPrinterColumns) {
        return render(CustomColumns.of(additionalPrinterColumns), resource, UnaryOperator.identity());
    }

    /**
     * The Table of a list response: one row per item, in the list's order (flow schemas excepted: kube
     * sorts them by matching precedence, then name), and the list's metadata.
     *
     * @param printer from {@link #printer} or {@link #customResourcePrinter}
     * @param items the objects as stored (full, in the version served); they are not changed
     * @param listMeta resourceVersion, continue and remainingItemCount of the list
     * @param options version, includeObject and noHeaders
     * @param now the time ages are measured to
     */
    public ObjectNode list(ResourcePrinter printer, List<? extends JsonNode> items, ListMeta listMeta,
                           TableOptions options, Instant now) {
        ObjectNode table = start(printer, listMeta, options);
        ArrayNode rows = table.putArray("rows");
        List<? extends JsonNode> ordered = items;
        if (printer.printer().order() != null) {
            List<JsonNode> copy = new java.util.ArrayList<>(items);
            copy.sort(printer.printer().order());
            ordered = copy;
        }
        int index = 0;
        for (JsonNode item : ordered) {
            CpuShare.step(index++);
            rows.add(row(printer, item, options, now));
        }
        return table;
    }

    /** The Table of a single GET (or one watch event): one row, and the object's resourceVersion. */
    public ObjectNode single(ResourcePrinter printer, JsonNode object, TableOptions options, Instant now) {
        String rv = GoValues.text(object, "metadata", "resourceVersion");
        ObjectNode table = start(printer, new ListMeta(rv, null, null), options);
        table.putArray("rows").add(row(printer, object, options, now));
        return table;
    }

    /** {@link #list(ResourcePrinter, List, ListMeta, TableOptions, Instant)} with the resource's built-in printer. */
    public ObjectNode list(ApiResource resource, List<? extends JsonNode> items, ListMeta listMeta,
                           TableOptions options, Instant now) {
        return list(printer(resource), items, listMeta, options, now);
    }

    /** {@link #single(ResourcePrinter, JsonNode, TableOptions, Instant)} with the resource's built-in printer. */
    public ObjectNode single(ApiResource resource, JsonNode object, TableOptions options, Instant now) {
        return single(printer(resource), object, options, now);
    }

    private ResourcePrinter render(KindPrinter printer, ApiResource resource, UnaryOperator<JsonNode> printed) {
        ArrayNode defs = Json.MAPPER.createArrayNode();
        for (Column c : printer.columns()) {
            defs.addObject()
                    .put("name", c.name())
                    .put("type", c.type())
                    .put("format", c.format())
                    .put("description", descriptions.of(c.doc()))
                    .put("priority", c.priority());
        }
        String apiVersion = resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version();
        return new ResourcePrinter(printer, defs, apiVersion, resource.kind(), printed);
    }

    /** kube writes {@code columnDefinitions: null} when headers are off (a Go nil slice). */
    private static ObjectNode start(ResourcePrinter printer, ListMeta listMeta, TableOptions options) {
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", options.version().apiVersion());
        table.set("metadata", listMeta.toJson());
        if (options.noHeaders()) {
            table.putNull("columnDefinitions");
        } else {
            table.set("columnDefinitions", printer.columnDefinitions());
        }
        return table;
    }

    private static ObjectNode row(ResourcePrinter printer, JsonNode obj, TableOptions options, Instant now) {
        ObjectNode row = Json.object();
        ArrayNode cells = row.putArray("cells");
        JsonNode printed = printer.printed(obj);
        for (Column c : printer.printer().columns()) {
            cells.add(cell(c.cell().value(printed, now)));
        }
        KindPrinter.Conditions conditions = printer.printer().conditions();
        if (conditions != null) {
            ArrayNode rowConditions = conditions.of(printed);
            if (rowConditions != null && !rowConditions.isEmpty()) {
                row.set("conditions", rowConditions);
            }
        }
        switch (options.includeObject()) {
            case NONE -> row.putNull("object");
            case METADATA -> row.set("object", PartialObjectMetadata.of(obj, options.version()));
            case OBJECT -> row.set("object", withTypeMeta(obj, printer));
        }
        return row;
    }

    private static JsonNode cell(Object value) {
        var nodes = Json.MAPPER.getNodeFactory();
        return switch (value) {
            case null -> nodes.nullNode();
            case String s -> nodes.textNode(s);
            case Long l -> nodes.numberNode(l);
            case Integer i -> nodes.numberNode(i.longValue());
            case Double d -> nodes.numberNode(d);
            case Boolean b -> nodes.booleanNode(b);
            default -> nodes.textNode(value.toString());
        };
    }

    /** The whole object, with apiVersion and kind set from the resource when the stored tree lacks them. */
    private static JsonNode withTypeMeta(JsonNode obj, ResourcePrinter printer) {
        if (obj.hasNonNull("apiVersion") && obj.hasNonNull("kind") || !(obj instanceof ObjectNode o)) {
            return obj;
        }
        ObjectNode copy = Json.object();
        copy.put("apiVersion", printer.apiVersion());
        copy.put("kind", printer.kind());
        o.properties().forEach(e -> {
            if (!copy.has(e.getKey())) {
                copy.set(e.getKey(), e.getValue());
            }
        });
        return copy;
    }
}

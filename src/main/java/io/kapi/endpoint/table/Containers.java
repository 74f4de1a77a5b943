package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import java.util.ArrayList;
import java.util.List;

/** The CONTAINERS and IMAGES cells of workloads ({@code layoutContainerCells}): comma-joined, in spec order. */
final class Containers {

    static final String NAMES_DOC = "Names of each container in the template.";
    static final String IMAGES_DOC = "Images referenced by each container in the template.";

    private Containers() {
    }

    /** Names of the containers of the pod spec at {@code specPath}. */
    static String names(JsonNode obj, String... specPath) {
        return join(obj, "name", specPath);
    }

    static String images(JsonNode obj, String... specPath) {
        return join(obj, "image", specPath);
    }

    private static String join(JsonNode obj, String field, String... specPath) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : GoValues.items(GoValues.at(obj, specPath), "containers")) {
            out.add(GoValues.text(c, field));
        }
        return String.join(",", out);
    }

    /** The CONTAINERS, IMAGES wide columns for a pod template at {@code specPath}. */
    static List<Column> wideColumns(String... specPath) {
        return List.of(
                Column.string("Containers", Doc.text(NAMES_DOC), (o, now) -> names(o, specPath)).wide(),
                Column.string("Images", Doc.text(IMAGES_DOC), (o, now) -> images(o, specPath)).wide());
    }
}

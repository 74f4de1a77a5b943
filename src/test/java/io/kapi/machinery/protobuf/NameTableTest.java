package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.kapi.machinery.protobuf.MessagePlan.FieldPlan;
import io.kubernetes.client.proto.V1;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NameTableTest {

    @Test
    @DisplayName("every field is found by its name, interned or not; a name not in the table is not")
    void found() {
        for (var message : List.of(V1.Pod.getDescriptor(), V1.PodSpec.getDescriptor(), V1.Container.getDescriptor())) {
            Map<String, FieldPlan> fields = new HashMap<>();
            for (FieldDescriptor fd : message.getFields()) {
                fields.put(new String(fd.getName()), new FieldPlan(fd));
            }
            NameTable table = new NameTable(fields);
            fields.forEach((name, plan) -> {
                assertSame(plan, table.get(name));
                assertSame(plan, table.get(new String(name)));
                assertSame(plan, table.get(name.intern()));
                assertNull(table.get(name + "x"));
            });
            assertNull(table.get(""));
        }
    }

    @Test
    @DisplayName("names of one hash (and a table of one) each find their own field")
    void collisions() {
        List<FieldDescriptor> fds = V1.Pod.getDescriptor().getFields();
        assertEquals("Aa".hashCode(), "BB".hashCode());
        FieldPlan a = new FieldPlan(fds.get(0));
        FieldPlan b = new FieldPlan(fds.get(1));
        NameTable table = new NameTable(Map.of("Aa", a, "BB", b));
        assertSame(a, table.get("Aa"));
        assertSame(b, table.get("BB"));
        assertNull(table.get("C#"));
        NameTable one = new NameTable(Map.of("only", a));
        assertSame(a, one.get("only"));
        assertNull(one.get("other"));
        assertNull(new NameTable(Map.of()).get("any"));
    }
}

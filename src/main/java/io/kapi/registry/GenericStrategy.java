package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.ObjectMeta;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The strategy every built-in kind starts from: metadata rules shared by all kinds, plus, for kinds
 * that track {@code metadata.generation}, generation 1 on create and +1 whenever anything outside
 * {@code metadata} and {@code status} changes.
 *
 * @param tracksGeneration whether the kind's strategy in kube-apiserver maintains metadata.generation
 * @param createOnUpdate whether a PUT to a missing object creates it
 * @param defaulter the kind's defaults
 * @param validator the kind's validation beyond its schema
 */
public record GenericStrategy(boolean tracksGeneration, boolean createOnUpdate, Defaulter defaulter,
                              KindValidator validator) implements Strategy {

    @Override
    public void applyDefaults(ObjectNode object) {
        defaulter.apply(object);
    }

    @Override
    public void prepareForCreate(ObjectNode object) {
        ObjectMeta.of(object).generation(tracksGeneration ? 1 : 0);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
        ObjectMeta meta = ObjectMeta.of(object);
        long oldGeneration = ObjectMeta.of(old).generation();
        boolean specChanged = tracksGeneration && !sameOutsideMetadataAndStatus(object, old);
        meta.generation(specChanged ? oldGeneration + 1 : oldGeneration);
    }

    @Override
    public List<FieldError> validate(ObjectNode object) {
        return validator.validate(object);
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return validator.validateUpdate(object, old);
    }

    @Override
    public boolean allowCreateOnUpdate() {
        return createOnUpdate;
    }

    private static boolean sameOutsideMetadataAndStatus(ObjectNode a, ObjectNode b) {
        return Objects.equals(withoutMetaAndStatus(a), withoutMetaAndStatus(b));
    }

    private static ObjectNode withoutMetaAndStatus(ObjectNode o) {
        ObjectNode copy = o.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            switch (e.getKey()) {
                case "metadata", "status", "apiVersion", "kind" -> { }
                default -> copy.set(e.getKey(), e.getValue());
            }
        }
        return copy;
    }
}

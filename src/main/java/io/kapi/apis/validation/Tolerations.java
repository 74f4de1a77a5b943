package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import java.util.List;

/** kube's {@code ValidateTolerations} and the pod update rule that only additions are allowed. */
final class Tolerations {

    private static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final List<String> OPERATORS = List.of("Equal", "Exists");

    private Tolerations() {
    }

    static void validate(JsonNode list, String path, Errs e) {
        List<JsonNode> ts = GoValues.items(list);
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            String p = path + "[" + i + "]";
            String key = GoValues.text(t, "key");
            String op = GoValues.text(t, "operator");
            String value = GoValues.text(t, "value");
            String effect = GoValues.text(t, "effect");
            if (!key.isEmpty()) {
                e.each(p + ".key", key, Identifiers.qualifiedName(key));
            }
            if (key.isEmpty() && !op.equals("Exists")) {
                e.invalidString(p + ".operator", op,
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            }
            if (GoValues.has(t, "tolerationSeconds") && !effect.equals("NoExecute")) {
                e.invalidString(p + ".effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set");
            }
            switch (op) {
                case "Equal", "" -> {
                    List<String> msgs = Identifiers.labelValue(value);
                    if (!msgs.isEmpty()) {
                        e.invalidString(p + ".operator", value, String.join(";", msgs));
                    }
                }
                case "Exists" -> {
                    if (!value.isEmpty()) {
                        e.invalidString(p + ".operator", value, "value must be empty when `operator` is 'Exists'");
                    }
                }
                default -> e.notSupported(p + ".operator", GoStrings.quote(op), OPERATORS);
            }
            if (!effect.isEmpty() && !EFFECTS.contains(effect)) {
                e.notSupported(p + ".effect", GoStrings.quote(effect), EFFECTS);
            }
        }
    }

    /** {@code validateOnlyAddedTolerations}: every old toleration must still be there (tolerationSeconds may change). */
    static void onlyAdded(JsonNode now, JsonNode before, String path, Errs e) {
        for (JsonNode old : GoValues.items(before)) {
            boolean found = false;
            for (JsonNode t : GoValues.items(now)) {
                found |= sameIgnoringSeconds(old, t);
            }
            if (!found) {
                e.forbidden(path, "existing toleration can not be modified except its tolerationSeconds");
                return;
            }
        }
    }

    private static boolean sameIgnoringSeconds(JsonNode a, JsonNode b) {
        for (String f : List.of("key", "operator", "value", "effect")) {
            if (!GoValues.text(a, f).equals(GoValues.text(b, f))) {
                return false;
            }
        }
        return true;
    }
}

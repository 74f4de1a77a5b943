package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.registry.Strategy;
import io.kapi.user.UserInfo;
import java.util.List;

/**
 * A strategy with kube's spec/status split on its main resource: create starts from the kind's initial
 * status, and update keeps the stored status whatever the request says. The {@code /status} subresource
 * (the registry's StatusStrategy, which wraps this and does not call its {@code prepareForUpdate}) still
 * changes status only.
 *
 * @param base the kind's strategy (defaults, generation, validation)
 * @param policy the kind's initial status
 */
public record SpecStatusStrategy(Strategy base, StatusPolicy policy) implements Strategy {

    @Override
    public void applyDefaults(ObjectNode object) {
        base.applyDefaults(object);
    }

    @Override
    public void prepareForCreate(ObjectNode object) {
        base.prepareForCreate(object);
        object.set("status", policy.initial(object));
    }

    @Override
    public void prepareRequester(ObjectNode object, UserInfo user) {
        base.prepareRequester(object, user);
    }

    @Override
    public void prepareForStatusUpdate(ObjectNode object, ObjectNode old) {
        base.prepareForStatusUpdate(object, old);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
        base.prepareForUpdate(object, old);
        JsonNode status = old.get("status");
        if (status == null) {
            object.remove("status");
        } else {
            object.set("status", status.deepCopy());
        }
    }

    @Override
    public List<FieldError> validate(ObjectNode object) {
        return base.validate(object);
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return base.validateUpdate(object, old);
    }

    @Override
    public void canonicalize(ObjectNode object) {
        base.canonicalize(object);
    }

    @Override
    public boolean allowCreateOnUpdate() {
        return base.allowCreateOnUpdate();
    }

    @Override
    public boolean allowUnconditionalUpdate() {
        return base.allowUnconditionalUpdate();
    }

    @Override
    public List<String> warningsOnCreate(ObjectNode object) {
        return base.warningsOnCreate(object);
    }
}

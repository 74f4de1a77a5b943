package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * A {@link KindValidator} made of two checks: {@code create} validates an object; {@code update} validates an
 * update given the new and old object and decides itself whether (and where in its order) the create checks
 * run, since kube's {@code Validate*Update} functions order their errors differently per kind.
 */
record Rules(Create create, Update update) implements KindValidator {

    @FunctionalInterface
    interface Create {
        void check(ObjectNode object, Errs errs);
    }

    @FunctionalInterface
    interface Update {
        void check(ObjectNode object, ObjectNode old, Errs errs);
    }

    /** Rules whose update validates the new object like a create, then applies {@code immutable}. */
    static Rules of(Create create, Update immutable) {
        return new Rules(create, (o, old, e) -> {
            create.check(o, e);
            immutable.check(o, old, e);
        });
    }

    /** Rules with no update-only constraints. */
    static Rules of(Create create) {
        return new Rules(create, (o, old, e) -> create.check(o, e));
    }

    @Override
    public List<FieldError> validate(ObjectNode object) {
        Errs e = new Errs();
        create.check(object, e);
        return e.list();
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        Errs e = new Errs();
        update.check(object, old, e);
        return e.list();
    }
}

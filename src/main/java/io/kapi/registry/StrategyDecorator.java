package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.user.UserInfo;
import java.util.List;

/**
 * A strategy that changes a few steps of another and forwards the rest: implement {@link #base()}
 * and override only what differs.
 */
public interface StrategyDecorator extends Strategy {

    Strategy base();

    @Override
    default void applyDefaults(ObjectNode object) {
        base().applyDefaults(object);
    }

    @Override
    default void prepareForCreate(ObjectNode object) {
        base().prepareForCreate(object);
    }

    @Override
    default void prepareRequester(ObjectNode object, UserInfo user) {
        base().prepareRequester(object, user);
    }

    @Override
    default void prepareForUpdate(ObjectNode object, ObjectNode old) {
        base().prepareForUpdate(object, old);
    }

    @Override
    default void prepareForStatusUpdate(ObjectNode object, ObjectNode old) {
        base().prepareForStatusUpdate(object, old);
    }

    @Override
    default Finish beginCreate(ObjectNode object, boolean dryRun) {
        return base().beginCreate(object, dryRun);
    }

    @Override
    default Finish beginUpdate(ObjectNode object, ObjectNode old, boolean dryRun) {
        return base().beginUpdate(object, old, dryRun);
    }

    @Override
    default List<FieldError> validate(ObjectNode object) {
        return base().validate(object);
    }

    @Override
    default List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return base().validateUpdate(object, old);
    }

    @Override
    default void canonicalize(ObjectNode object) {
        base().canonicalize(object);
    }

    @Override
    default boolean allowCreateOnUpdate() {
        return base().allowCreateOnUpdate();
    }

    @Override
    default boolean allowUnconditionalUpdate() {
        return base().allowUnconditionalUpdate();
    }

    @Override
    default Deletion beforeDelete(ObjectNode object, DeleteOptions options) {
        return base().beforeDelete(object, options);
    }

    @Override
    default void afterDelete(ObjectNode object) {
        base().afterDelete(object);
    }

    @Override
    default List<String> warningsOnCreate(ObjectNode object) {
        return base().warningsOnCreate(object);
    }
}

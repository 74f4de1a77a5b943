package io.kapi.informers;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Told of every change an {@link Informer} applies, on the informer's thread, in the order applied
 * (client-go's {@code ResourceEventHandler}). The objects are the informer's own, shared with every
 * other handler and reader: never change them. A handler should do little (a controller enqueues a
 * key): the informer's next event waits for it. A relist reports what it changed as such changes too.
 */
public interface EventHandler {

    default void onAdd(ObjectNode object) {
    }

    default void onUpdate(ObjectNode before, ObjectNode after) {
    }

    default void onDelete(ObjectNode object) {
    }

    /** A handler that calls {@code action} with the object of every change (the new one; the old one on delete). */
    static EventHandler onAnyChange(java.util.function.Consumer<ObjectNode> action) {
        return new EventHandler() {
            @Override
            public void onAdd(ObjectNode object) {
                action.accept(object);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                action.accept(after);
            }

            @Override
            public void onDelete(ObjectNode object) {
                action.accept(object);
            }
        };
    }
}

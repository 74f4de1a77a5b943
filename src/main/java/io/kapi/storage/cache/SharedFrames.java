package io.kapi.storage.cache;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.protobuf.StoredMessage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The encodings of one event, computed by the first watcher that needs a given form (type and wire
 * format) and reused by every other: encode once, send many. Lives as long as the event.
 *
 * <p>An initial event (of a watch from "0", or with {@code sendInitialEvents}) is sent by one watcher alone:
 * its frames ({@link #ofInitialEvent}) keep nothing of their own, but share the object's protobuf message,
 * kept as a protobuf LIST or GET keeps it. A delete's ({@link #ofDelete}) make the DELETED object's protobuf
 * from the message of the version it deletes, the delete's revision spliced in.
 *
 * <p>The cache holds objects in their storage version. Watchers of a resource served in several
 * versions see the event through {@link #converted}: the object converted to their version once, by
 * whoever asks first, with frames of its own that every watcher of that version shares.
 */
public final class SharedFrames {

    /** The key of an object's protobuf message as another kind than its stored one (before the kind's name). */
    private static final String MESSAGE = "protobuf-item:";

    /** Made by the first frame (most cached objects never get one: 64 bytes each saved). */
    private volatile ConcurrentHashMap<String, byte[]> frames;
    private volatile ConcurrentHashMap<String, Converted> views;
    /** Where the object's protobuf message lies in its stored value, until {@link #message} made it; or null. */
    private volatile StoredMessage stored;
    /** The name of the stored value's message, or null. */
    private final String storedName;
    private final long revision;
    /** The object's protobuf message as its stored kind, once made. */
    private volatile byte[] message;
    /** An event's: the frames of the object it carries (its new version), whose message it shares; or null. */
    private final SharedFrames object;
    /** A cached object's: told when the object is read in protobuf; or null. */
    private final ProtobufReaders readers;
    /** A delete's: the cached version it deletes (its tree and frames); or null. */
    private final CachedObject deleted;
    /** Whether frames made are kept for other watchers (not for an initial event: one watcher sends it). */
    private final boolean keep;

    /** Frames of an object (or event) with no stored message to make protobuf from. */
    public SharedFrames() {
        this(null, 0, null, null, null, true);
    }

    /**
     * Frames of a cached object of a resource whose protobuf reads {@code readers} notes: its protobuf
     * message is made from {@code stored} (a stored protobuf value the object is decoded from as it is, not
     * converted; or null) with {@code revision} as its resourceVersion.
     */
    public SharedFrames(StoredMessage stored, long revision, ProtobufReaders readers) {
        this(stored, revision, readers, null, null, true);
    }

    /** Frames of an event that carries a new object (a create or an update), whose frames are {@code object}. */
    static SharedFrames ofEvent(SharedFrames object) {
        return new SharedFrames(null, 0, null, object, null, true);
    }

    /** Frames of the delete at {@code revision} of {@code previous}, the cached version it deletes. */
    static SharedFrames ofDelete(long revision, CachedObject previous) {
        return new SharedFrames(null, revision, null, null, previous, true);
    }

    /**
     * Frames of an initial event carrying a cached object whose frames are {@code object}: none kept but the
     * object's message.
     */
    public static SharedFrames ofInitialEvent(SharedFrames object) {
        return new SharedFrames(null, 0, null, object, null, false);
    }

    private SharedFrames(StoredMessage stored, long revision, ProtobufReaders readers, SharedFrames object,
                         CachedObject deleted, boolean keep) {
        this.object = object;
        this.readers = readers;
        this.deleted = deleted;
        this.keep = keep;
        this.stored = stored;
        this.storedName = stored == null ? null : stored.messageName();
        this.revision = revision;
    }

    /** The event's object as one served version has it, and that version's frames. */
    public record Converted(ObjectNode object, SharedFrames frames) {
    }

    /** The frame for {@code form}, encoding it with {@code encoder} if nobody did yet. */
    public byte[] get(String form, Supplier<byte[]> encoder) {
        if (!keep) {
            return encoder.get();
        }
        ConcurrentHashMap<String, byte[]> all = frames;
        if (all == null) {
            synchronized (this) {
                all = frames;
                if (all == null) {
                    all = new ConcurrentHashMap<>(2);
                    frames = all;
                }
            }
        }
        byte[] frame = all.get(form);
        return frame != null ? frame : all.computeIfAbsent(form, f -> encoder.get());
    }

    /**
     * The object's protobuf message (without envelope) as the message {@code messageName}, made once and
     * kept: from the stored value where it holds that message (a copy with the resourceVersion spliced
     * in), else by {@code encoder}, which writes the object's tree.
     */
    public byte[] message(String messageName, Supplier<byte[]> encoder) {
        if (readers != null) {
            readers.saw();
        }
        if (storedName == null || !storedName.equals(messageName)) {
            return get(MESSAGE + messageName, encoder);
        }
        byte[] made = message;
        if (made != null) {
            return made;
        }
        StoredMessage source = stored;
        if (source == null) { // another thread made it: it wrote the message before it let go of the value
            return message;
        }
        made = source.withResourceVersion(Long.toString(revision));
        message = made = made != null ? made : encoder.get();
        stored = null; // the value's bytes are not needed any more
        return made;
    }

    /**
     * {@code object}, of the built-in kind {@code gvk}, as {@link ProtobufCodec#encode} writes it: its
     * message from {@link #objectMessage} (made once, from the stored value where there is one) in an
     * envelope made for each call, so that the message is not kept twice.
     *
     * @throws IllegalArgumentException as {@link ProtobufCodec#encode}, for a kind without a message
     */
    public byte[] protobuf(ObjectNode object, GroupVersionKind gvk) {
        String name = ProtobufCodec.messageName(gvk);
        if (name == null) {
            return ProtobufCodec.encode(object, gvk);
        }
        return ProtobufCodec.wrap(gvk, objectMessage(name, () -> ProtobufCodec.encodeMessage(object, gvk)));
    }

    /**
     * The object a DELETED event carries, {@code deleted} (the deleted version with the delete's revision as
     * its resourceVersion), of the built-in kind {@code gvk}, as {@link ProtobufCodec#encode} writes it: for
     * a delete's frames, from the deleted version's message (made once, from its stored value where there is
     * one) with the delete's revision spliced in; else, or where that cannot be done, from the tree.
     *
     * @throws IllegalArgumentException as {@link ProtobufCodec#encode}, for a kind without a message
     */
    public byte[] deletedProtobuf(ObjectNode deleted, GroupVersionKind gvk) {
        String name = ProtobufCodec.messageName(gvk);
        if (this.deleted == null || name == null) {
            return ProtobufCodec.encode(deleted, gvk);
        }
        byte[] message = this.deleted.encodings().message(name,
                () -> ProtobufCodec.encodeMessage(this.deleted.object(), gvk));
        byte[] spliced = ProtobufCodec.withResourceVersion(gvk, message, Long.toString(revision));
        return spliced == null ? ProtobufCodec.encode(deleted, gvk) : ProtobufCodec.wrap(gvk, spliced);
    }

    /**
     * {@link #message} of the object an event carries as its new version: made once for the event's
     * watchers and the object's later reads alike (an event's frames share the object's message); for other
     * frames, their own.
     */
    public byte[] objectMessage(String messageName, Supplier<byte[]> encoder) {
        return object != null ? object.message(messageName, encoder) : message(messageName, encoder);
    }

    /**
     * The event's object in another version, converting it with {@code converter} if nobody did yet.
     *
     * @param view names the version and which object of the event (the new one, or the deleted one)
     * @param converter makes the converted object; it must not change what it converts
     */
    public Converted converted(String view, Supplier<ObjectNode> converter) {
        if (!keep) {
            return new Converted(converter.get(), new SharedFrames());
        }
        ConcurrentHashMap<String, Converted> all = views;
        if (all == null) {
            synchronized (this) {
                all = views;
                if (all == null) {
                    all = new ConcurrentHashMap<>(2);
                    views = all;
                }
            }
        }
        Converted found = all.get(view);
        return found != null ? found : all.computeIfAbsent(view, v -> new Converted(converter.get(), new SharedFrames()));
    }
}

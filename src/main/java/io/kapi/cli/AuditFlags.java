package io.kapi.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --audit-*} flags: names, types, defaults and help are kube-apiserver's (from the flags data
 * file); each value, checked against its type, is kept by name in {@link io.kapi.audit.AuditOptions},
 * which reads them with kube's defaults.
 */
final class AuditFlags {

    private static final String PREFIX = "audit-";

    private AuditFlags() {
    }

    static List<Flag> all(List<Flag> kube) {
        List<Flag> flags = new ArrayList<>();
        for (Flag f : kube) {
            if (f.name().startsWith(PREFIX)) {
                String key = f.name().substring(PREFIX.length());
                flags.add(new Flag(f.name(), f.shorthand(), f.section(), f.type(), f.defaultValue(), f.usage(), true,
                        f.list(), (b, v) -> {
                            KubeFlags.check(f.type(), v);
                            b.audit = b.audit.with(key, v);
                        }));
            }
        }
        return flags;
    }
}

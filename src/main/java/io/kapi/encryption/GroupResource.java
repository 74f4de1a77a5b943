package io.kapi.encryption;

/**
 * A resource of an encryption rule, as kube's {@code schema.ParseGroupResource} reads it: {@code secrets}
 * (core group), {@code widgets.example.com}, {@code *.apps}, {@code *.} (every core resource), {@code *.*}.
 */
record GroupResource(String group, String resource) {

    static final GroupResource ANY = new GroupResource("*", "*");

    static GroupResource parse(String text) {
        int dot = text.indexOf('.');
        return dot < 0 ? new GroupResource("", text) : new GroupResource(text.substring(dot + 1), text.substring(0, dot));
    }

    /** As kube prints a rule in its errors: {@code *.} for the core group's wildcard. */
    @Override
    public String toString() {
        return group.isEmpty() ? (resource.equals("*") ? "*." : resource) : resource + "." + group;
    }
}

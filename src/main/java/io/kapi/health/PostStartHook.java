package io.kapi.health;

/**
 * Work run once after the server listens, like kube-apiserver's post-start hooks (creating system
 * namespaces, bootstrap RBAC). Each hook appears as the readiness check {@code poststarthook/{name}},
 * failing until the hook has returned; a hook that throws is retried by the server with back-off.
 */
public interface PostStartHook {

    /** What a hook's check name starts with: {@code poststarthook/<name>}. */
    String PREFIX = "poststarthook/";

    String name();

    void run() throws Exception;

    /** The work of one step of a hook. */
    @FunctionalInterface
    interface Work {
        void run() throws Exception;
    }

    /** A hook of a name and its work: a component's step under the name kube gives it. */
    static PostStartHook of(String name, Work work) {
        return new PostStartHook() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void run() throws Exception {
                work.run();
            }
        };
    }
}

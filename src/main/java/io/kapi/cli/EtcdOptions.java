package io.kapi.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --etcd-*} flags besides {@code --etcd-servers}, with kube-apiserver's defaults; immutable.
 *
 * @param prefix {@code --etcd-prefix}
 * @param caFile {@code --etcd-cafile}, or null
 * @param certFile {@code --etcd-certfile}, or null
 * @param keyFile {@code --etcd-keyfile}, or null
 * @param compactionInterval {@code --etcd-compaction-interval}; zero disables compaction
 * @param healthcheckTimeout {@code --etcd-healthcheck-timeout}
 */
public record EtcdOptions(String prefix, Path caFile, Path certFile, Path keyFile, Duration compactionInterval,
                          Duration healthcheckTimeout) {

    public static final EtcdOptions DEFAULT = new EtcdOptions("/registry", null, null, null, Duration.ofMinutes(5),
            Duration.ofSeconds(2));

    EtcdOptions withPrefix(String v) {
        return new EtcdOptions(v, caFile, certFile, keyFile, compactionInterval, healthcheckTimeout);
    }

    EtcdOptions withCaFile(Path v) {
        return new EtcdOptions(prefix, v, certFile, keyFile, compactionInterval, healthcheckTimeout);
    }

    EtcdOptions withCertFile(Path v) {
        return new EtcdOptions(prefix, caFile, v, keyFile, compactionInterval, healthcheckTimeout);
    }

    EtcdOptions withKeyFile(Path v) {
        return new EtcdOptions(prefix, caFile, certFile, v, compactionInterval, healthcheckTimeout);
    }

    EtcdOptions withCompactionInterval(Duration v) {
        return new EtcdOptions(prefix, caFile, certFile, keyFile, v, healthcheckTimeout);
    }

    EtcdOptions withHealthcheckTimeout(Duration v) {
        return new EtcdOptions(prefix, caFile, certFile, keyFile, compactionInterval, v);
    }

    /** What is wrong with these flags, worded for the command line. */
    List<String> validate() {
        List<String> errors = new ArrayList<>();
        if (prefix.isEmpty() || prefix.equals("/")) {
            errors.add("--etcd-prefix must not be empty or /");
        }
        if ((certFile == null) != (keyFile == null)) {
            errors.add("--etcd-certfile and --etcd-keyfile must be given together");
        }
        for (Path file : new Path[] {caFile, certFile, keyFile}) {
            if (file != null && !Files.isReadable(file)) {
                errors.add("cannot read file " + file);
            }
        }
        if (compactionInterval.isNegative()) {
            errors.add("--etcd-compaction-interval can not be negative value");
        }
        if (healthcheckTimeout.isNegative() || healthcheckTimeout.isZero()) {
            errors.add("--etcd-healthcheck-timeout must be greater than 0");
        }
        return errors;
    }
}

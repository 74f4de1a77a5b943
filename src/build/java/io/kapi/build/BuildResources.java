package io.kapi.build;

import io.kapi.apis.bootstrap.RbacPolicy;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A build step (the pom's {@code process-classes} phase), not part of the server: writes into the
 * compiled classes the forms of the data files that a start reads fastest, so that a fresh JVM parses
 * less and loads no YAML parser: the bootstrap data ({@code apis/bootstrap/*.yaml}, kept as the
 * readable, commented source) as JSON, and the built-in kinds' definitions out of the 6 MB fabric8
 * file ({@link Schemas#PRECOMPILED}). Usage: {@code BuildResources <classes directory>}.
 */
public final class BuildResources {

    private BuildResources() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: BuildResources <classes directory> [lambda classes: true|false]");
        }
        Path classes = Path.of(args[0]);
        List<Path> yaml;
        try (Stream<Path> files = Files.list(classes.resolve("apis/bootstrap"))) {
            yaml = files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path file : yaml) {
            Path json = classes.resolve(RbacPolicy.precompiled("apis/bootstrap/" + file.getFileName()));
            Files.write(json, Json.MAPPER.writeValueAsBytes(Json.yaml().readTree(Files.readString(file))));
        }
        Path definitions = classes.resolve(Schemas.PRECOMPILED.substring(1));
        Files.createDirectories(definitions.getParent());
        try (OutputStream out = Files.newOutputStream(definitions)) {
            Schemas.writeKubernetesDefinitions(out);
        }
        if (args.length < 2 || Boolean.parseBoolean(args[1])) {
            LambdaClasses.rewrite(classes);
        }
    }
}

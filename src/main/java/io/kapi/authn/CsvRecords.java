package io.kapi.authn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV of kube's {@code --token-auth-file} and {@code --basic-auth-file} (Go's {@code encoding/csv}
 * with variable field counts): fields separated by commas, a field in double quotes may hold commas and
 * {@code ""} for a quote; blank lines skipped. Errors name the line, never its content (it holds secrets).
 */
final class CsvRecords {

    private CsvRecords() {
    }

    static List<List<String>> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<List<String>> records = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            records.add(parse(line, file, i + 1));
        }
        return records;
    }

    private static List<String> parse(String line, Path file, int number) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.isEmpty() && !wasQuoted) {
                quoted = true;
                wasQuoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("%s, line %d: unterminated quoted field".formatted(file, number));
        }
        fields.add(field.toString());
        return fields;
    }
}

package io.kapi.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * The audit log file, rotated as kube-apiserver's (lumberjack): past {@code maxSizeMb} megabytes the file is
 * renamed to {@code <name>-<UTC time 2006-01-02T15-04-05.000><ext>} beside it, optionally gzipped, and
 * a new one started; backups beyond {@code maxBackups} or older than {@code maxAgeDays} are removed (0:
 * keep). Files are created 0600, the directory 0700 when it is made. Not thread-safe: the log backend
 * serialises writes.
 */
final class RotatingFile {

    private static final DateTimeFormatter BACKUP_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss.SSS").withZone(ZoneOffset.UTC);

    private final Path file;
    private final long maxBytes;
    private final int maxAgeDays;
    private final int maxBackups;
    private final boolean compress;
    private FileChannel channel;
    private long size;

    RotatingFile(Path file, int maxSizeMb, int maxAgeDays, int maxBackups, boolean compress) throws IOException {
        this.file = file.toAbsolutePath();
        this.maxBytes = maxSizeMb <= 0 ? Long.MAX_VALUE : maxSizeMb * 1024L * 1024L;
        this.maxAgeDays = maxAgeDays;
        this.maxBackups = maxBackups;
        this.compress = compress;
        Path dir = this.file.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        open();
    }

    private void open() throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        size = channel.size();
    }

    void write(byte[] data) throws IOException {
        if (size > 0 && size + data.length > maxBytes) {
            rotate();
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(data);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        size += data.length;
    }

    void close() throws IOException {
        channel.close();
    }

    private void rotate() throws IOException {
        channel.close();
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        Path backup = file.resolveSibling(base + "-" + BACKUP_TIME.format(Instant.now()) + ext);
        Files.move(file, backup);
        open();
        if (compress) {
            Path gz = backup.resolveSibling(backup.getFileName() + ".gz");
            try (InputStream in = Files.newInputStream(backup);
                 OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
                in.transferTo(out);
            }
            Files.setPosixFilePermissions(gz, PosixFilePermissions.fromString("rw-------"));
            Files.delete(backup);
        }
        prune(base, ext);
    }

    /** Removes backups beyond the count and age limits, newest kept. */
    private void prune(String base, String ext) throws IOException {
        List<Path> backups = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(file.getParent(), base + "-*" + ext + "*")) {
            dir.forEach(backups::add);
        }
        backups.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        Instant cutoff = maxAgeDays > 0 ? Instant.now().minus(Duration.ofDays(maxAgeDays)) : null;
        for (int i = 0; i < backups.size(); i++) {
            Path p = backups.get(i);
            boolean tooMany = maxBackups > 0 && i >= maxBackups;
            boolean tooOld = cutoff != null && Files.getLastModifiedTime(p).toInstant().isBefore(cutoff);
            if (tooMany || tooOld) {
                Files.deleteIfExists(p);
            }
        }
    }
}

package io.kapi.encryption;

import java.nio.file.Files;
import java.nio.file.Path;

/** The Python the independent checks run: Debian's, whose python3-cryptography {@code bin/test} installs. */
final class Python {

    private Python() {
    }

    static String command() {
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }
}

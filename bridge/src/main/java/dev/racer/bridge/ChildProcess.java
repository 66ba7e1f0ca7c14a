package dev.racer.bridge;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one analysis in a child {@code racer analyze-request} process: the request document on its
 * stdin, the response document from its stdout, a failure as one line on its stderr.
 */
final class ChildProcess {
    private ChildProcess() {
    }

    static String analyzeJson(String requestJson) {
        Path executable = NativeLibrary.executable();
        List<String> command = new ArrayList<String>();
        command.add(executable.toString());
        command.add("analyze-request");
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new RacerException("racer: cannot start " + executable + ": " + e.getMessage(), e);
        }
        // Both outputs are drained while the request is written, so neither pipe can fill up.
        Drain stdout = new Drain(process.getInputStream());
        Drain stderr = new Drain(process.getErrorStream());
        stdout.start();
        stderr.start();
        try {
            OutputStream in = process.getOutputStream();
            try {
                in.write(requestJson.getBytes(StandardCharsets.UTF_8));
            } finally {
                in.close();
            }
        } catch (IOException e) {
            // The process died before reading its request; its status and stderr say why.
        }
        int status;
        try {
            status = process.waitFor();
            stdout.join();
            stderr.join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new RacerException("racer: interrupted while the analysis process was running", e);
        }
        if (status == 0) {
            return stdout.text();
        }
        throw new RacerException(failure(status, stderr.text()));
    }

    /** The engine's own one-line error, or what became of the process. */
    static String failure(int status, String stderr) {
        String last = "";
        for (String line : stderr.split("\r?\n")) {
            if (!line.trim().isEmpty()) {
                last = line.trim();
            }
        }
        if (status == 2 && last.startsWith("racer: error: ")) {
            return "racer: " + last.substring("racer: error: ".length());
        }
        String how = status > 128 ? "was killed by signal " + (status - 128) : "exited with status " + status;
        return "racer: the analysis process " + how + (last.isEmpty() ? "" : ": " + last)
                + " (please report it with the input that caused it)";
    }

    /** Reads a stream to its end on a thread of its own. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Drain(InputStream in) {
            this.in = in;
            setDaemon(true);
            setName("racer-child-output");
        }

        @Override
        public void run() {
            byte[] buffer = new byte[1 << 16];
            try {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // The process is gone; what was read is all there is.
            } finally {
                try {
                    in.close();
                } catch (IOException e) {
                    // nothing to do
                }
            }
        }

        String text() {
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        }
    }
}
